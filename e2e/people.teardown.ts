// The clean-up project (the setup project's teardown; it runs after every spec has finished):
// every person the run made, through the setup, on demand or through the test-account form,
// has their Parley account closed and their Firebase user deleted.
import { test as teardown, expect } from '@playwright/test';
import { target } from './support/env';
import { People } from './support/people/people';

teardown('clean up the people the run made', async () => {
  teardown.setTimeout(120_000);
  const people = new People(target);
  try {
    const { cleaned, failures } = await people.cleanUp();
    console.log(
      `Cleaned up ${cleaned.pool + cleaned['on-demand'] + cleaned.form} people at ${target.baseURL}: ` +
        `${cleaned.pool} made by the setup, ${cleaned['on-demand']} made for a test, ${cleaned.form} through the form.`,
    );
    expect(failures, `people left at ${target.baseURL} (e2e/.auth keeps them for the next run)`).toEqual([]);
  } finally {
    await people.close();
  }
});
