// What a person typed is theirs: a reload right after the last key brings it all back. A write
// started as the page goes away (pagehide) may never finish, so the text must already be kept
// by then; the reloads below come within milliseconds of the last key, ten times over.
import { test, expect } from './fixtures';

test.describe.configure({ timeout: 240_000 });

test('a draft typed just before a reload comes back whole, every time', async ({ alice, bob }) => {
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  const { composer } = alice.chat;

  for (let run = 1; run <= 10; run += 1) {
    const text = `thought number ${run} and more`;
    await composer.fill(`thought number ${run}`);
    // At once: no pause for the typing delay before the reload.
    await composer.pressSequentially(' and more');
    await alice.page.reload({ waitUntil: 'commit' });
    await expect(composer, `run ${run}`).toBeVisible();
    await expect(composer, `run ${run}`).toHaveValue(text);
  }

  // Emptied just before a reload, it stays empty: the old text does not come back.
  await composer.fill('');
  await alice.page.reload({ waitUntil: 'commit' });
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue('');
  await composer.pressSequentially('x');
  await composer.press('Backspace');
  await alice.page.reload({ waitUntil: 'commit' });
  await expect(composer).toBeVisible();
  await expect(composer).toHaveValue('');
});
