// The setup project: signs in the people the specs will claim (e2e/support/people/people.ts),
// after cleaning up any a previous run against this deployment left behind (stopped before its
// clean-up), and checks that a browser starting from their storageState is signed in.
import { test as setup, expect } from '@playwright/test';
import { MainPage } from './pages/main-page';
import { target } from './support/env';
import { People, POOLED_ROLES } from './support/people/people';

setup('sign in the people the specs use', async ({ browser }) => {
  setup.setTimeout(120_000);
  const people = new People(target);
  try {
    if ((await people.records()).length > 0) {
      const leftover = await people.cleanUp();
      // Those that cannot be cleaned up stop the run: delete that folder to forget them.
      expect(leftover.failures, `cleaning up the people a previous run left in ${people.dir}`).toEqual([]);
    }
    const made = await people.fillPool(target.peoplePerRole);
    console.log(
      `${made.length} people signed in at ${target.baseURL} (${target.auth}` +
        `${target.emulatorHost ? `, Auth emulator ${target.emulatorHost}` : `, Firebase project ${target.firebaseProjectId}`}).`,
    );

    for (const role of POOLED_ROLES) {
      const sample = await people.peek(role);
      if (!sample) continue;
      const context = await browser.newContext({ storageState: sample.storageStatePath });
      const page = await context.newPage();
      await page.goto('/main');
      await new MainPage(page).expectSignedInAs(sample.record.name);
      await context.close();
    }
  } finally {
    await people.close();
  }
});
