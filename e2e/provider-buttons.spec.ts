// The sign-in buttons carry the providers' own marks, as their brand guidelines ask: Google's "G"
// in its four colours on a white (light) or near-black (dark) button with a grey outline, GitHub's
// Invertocat in one colour, the text's. Screenshots of the screen are in accessibility.spec.ts.
import { test, expect } from './fixtures';
import { AccountPage } from './pages/account-page';

const GOOGLE_COLOURS = ['#EA4335', '#4285F4', '#FBBC05', '#34A853'];

for (const [scheme, look] of [
  ['light', { background: 'rgb(255, 255, 255)', border: 'rgb(116, 119, 117)', text: 'rgb(31, 31, 31)' }],
  ['dark', { background: 'rgb(19, 19, 20)', border: 'rgb(142, 145, 143)', text: 'rgb(227, 227, 227)' }],
] as const) {
  test(`provider buttons, ${scheme}: the real marks, on Google's button colours`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const account = new AccountPage(await context.newPage());
    await account.goto();

    const google = account.googleButton;
    const fills = await google.locator('svg path').evaluateAll((paths) => paths.map((path) => path.getAttribute('fill')));
    expect(fills).toEqual(GOOGLE_COLOURS);
    await expect(google).toHaveCSS('background-color', look.background);
    await expect(google).toHaveCSS('border-top-color', look.border);
    await expect(google).toHaveCSS('color', look.text);

    const github = account.githubButton;
    await expect(github.locator('svg path')).toHaveAttribute('fill', 'currentColor');
    // The mark takes the button's text colour: black on light, white on dark.
    const markColour = await github.locator('svg').evaluate((svg) => getComputedStyle(svg).color);
    expect(markColour).toBe(look.text);
    // Decorative: the buttons are named by their words alone.
    await expect(google.locator('svg')).toHaveAttribute('aria-hidden', 'true');
    await expect(google).toHaveAccessibleName('Continue with Google');
    await expect(github).toHaveAccessibleName('Continue with GitHub');
    await context.close();
  });
}
