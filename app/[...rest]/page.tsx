import { redirect } from 'next/navigation';

/** Any other path (including the 401 target /accounts) redirects to main (docs/CLIENT-RULES.md). */
export default function CatchAll() {
  redirect('/main');
}
