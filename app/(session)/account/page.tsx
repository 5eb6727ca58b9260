import type { Metadata } from 'next';
import { AccountScreen } from '@/components/account/account-screen';
import { GitHubMark, GoogleMark } from '@/components/account/provider-marks';

export const metadata: Metadata = { title: 'Sign in · Parley' };

export default function AccountPage() {
  // Rendered here, on the server: the marks travel in the HTML, not in the page's JavaScript.
  return <AccountScreen marks={{ google: <GoogleMark />, github: <GitHubMark /> }} />;
}
