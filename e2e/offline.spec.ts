import { test, expect } from './fixtures';
import { goOffline } from './support/network';

// Messages written offline wait in the outbox, survive a reload, and arrive once, in order.
test('three messages written offline survive a reload and arrive once, in order', async ({ alice, bob }) => {
  test.setTimeout(90_000);
  const texts = ['offline one', 'offline two', 'offline three'];

  // A conversation to write in: Alice says hello while online.
  await alice.chat.search(bob.person.name);
  await alice.chat.openFromSearch(bob.person.name);
  await alice.chat.send('hello before');
  const aliceThread = alice.chat.thread(bob.person.name);
  await expect(aliceThread.getByText('Sent', { exact: true })).toBeVisible();

  // Offline: the three messages show as waiting; nothing reaches the server.
  await goOffline(alice.context);
  for (const text of texts) await alice.chat.send(text);
  for (const text of texts) await expect(aliceThread.getByText(text)).toBeVisible();
  await expect(aliceThread.getByText('Waiting for connection…')).toHaveCount(3);

  // Reload while the realtime connection is still down: the page loads (the network is back for
  // HTTP), but Socket.IO's requests are refused, so the outbox cannot send yet.
  await alice.context.route('**/socket.io/**', (route) => route.abort());
  await alice.context.setOffline(false);
  await alice.page.reload();
  await alice.chat.openConversation(bob.person.name);
  for (const text of texts) await expect(aliceThread.getByText(text)).toBeVisible();
  await expect(aliceThread.getByText('Waiting for connection…')).toHaveCount(3);

  // Online: the outbox sends them; each is sent once. (A group of messages shows "Sent" under
  // its last one only; every message carries its status.)
  await alice.context.unroute('**/socket.io/**');
  await expect(aliceThread.locator('[data-own="true"][data-status="sent"]')).toHaveCount(4, { timeout: 20_000 });
  await expect(aliceThread.getByText('Waiting for connection…')).toHaveCount(0);
  for (const text of texts) await expect(aliceThread.getByText(text)).toHaveCount(1);

  // Bob gets each exactly once, after the hello, in the order written; a reload agrees.
  await bob.chat.openConversation(alice.person.name);
  const bobThread = bob.chat.thread(alice.person.name);
  const shown = async () => {
    const all = await bobThread.getByText(/^(hello before|offline (one|two|three))$/).allTextContents();
    return all;
  };
  await expect.poll(shown).toEqual(['hello before', ...texts]);
  await bob.page.reload();
  await bob.chat.openConversation(alice.person.name);
  await expect.poll(shown).toEqual(['hello before', ...texts]);
});
