// axe-core on what images and deleting add to a conversation, light and dark, desktop and phone:
// the thumbnail of a picked image in the composer, the image viewer, and the Undo of "Delete for
// me". Zero violations allowed; screenshots attached for reviewers.
import { test, expect } from './fixtures';
import { ImageViewerPage } from './pages/image-viewer';
import { expectNoA11yViolations } from './support/axe';
import { DESKTOP, PHONE } from './support/people';
import { attachScreen } from './support/screens';
import { png } from '../testing/png';

test.describe.configure({ timeout: 180_000 });

const LAYOUTS = { desktop: DESKTOP, phone: PHONE } as const;

for (const scheme of ['light', 'dark'] as const) {
  for (const [layout, options] of Object.entries(LAYOUTS)) {
    const label = `${layout}-${scheme}`;

    test(`no axe violations, ${layout}, ${scheme}: composer thumbnail, image viewer, Undo`, async ({ people, bob }, testInfo) => {
      const alice = await people.signIn('alice', { ...options, colorScheme: scheme });
      await bob.chat.search(alice.person.name);
      await bob.chat.openFromSearch(alice.person.name);
      await bob.chat.send('A photo from the trip:');
      await bob.chat.fileInput.setInputFiles({ name: 'trip.png', mimeType: 'image/png', buffer: png(640, 480) });
      await expect(bob.chat.sendButton).toBeEnabled();
      await bob.chat.sendButton.click();
      await expect(bob.chat.thread(alice.person.name).getByRole('button', { name: 'Image: trip.png' })).toBeVisible();

      await alice.chat.openConversation(bob.person.name);
      await alice.chat.fileInput.setInputFiles({ name: 'reply.png', mimeType: 'image/png', buffer: png(200, 200) });
      await expect(alice.page.getByRole('img', { name: 'Preview of reply.png' })).toBeVisible();
      await expect(alice.chat.sendButton).toBeEnabled();
      await expectNoA11yViolations(alice.page, testInfo, `composer-thumbnail-${label}`);
      await attachScreen(alice.page, testInfo, `composer-thumbnail-${label}`);

      const opener = alice.chat.thread(bob.person.name).getByRole('button', { name: 'Image: trip.png' });
      await opener.click();
      const viewer = new ImageViewerPage(alice.page);
      await viewer.expectShowing('trip.png', '1 of 1');
      await expectNoA11yViolations(alice.page, testInfo, `image-viewer-${label}`);
      await attachScreen(alice.page, testInfo, `image-viewer-${label}`);
      await viewer.dialog.getByRole('button', { name: 'Zoom in' }).click();
      await expect(viewer.zoom).toHaveText('Zoom: 150%');
      await expectNoA11yViolations(alice.page, testInfo, `image-viewer-zoomed-${label}`);
      await viewer.dialog.getByRole('button', { name: 'Close' }).click();
      await expect(viewer.dialog).toBeHidden();
      await expect(opener).toBeFocused();

      await alice.chat.messageAction(bob.person.name, 'A photo from the trip:', 'Delete for me');
      await expect(alice.page.getByRole('button', { name: 'Undo' })).toBeFocused();
      await expectNoA11yViolations(alice.page, testInfo, `undo-${label}`);
      await attachScreen(alice.page, testInfo, `undo-${label}`);
    });
  }
}
