import { redirect } from 'next/navigation';

/** SPEC §2: any other path (including the 401 target /accounts) redirects to main. */
export default function CatchAll() {
  redirect('/main');
}
