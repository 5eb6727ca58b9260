// The conversation as two people use it: its URL, drafts, what counts as read, links, plain
// errors, grouping, files pasted or dropped, the unread pill. Two people, the real server.
import { test, expect, newPerson } from './fixtures';
import { ThreadPage } from './pages/thread-page';
import { PHONE, signedIn, userIdOf } from './support/people';
import { png } from '../testing/png';
import { goOffline, slowPages } from './support/network';

test.describe.configure({ timeout: 120_000 });

test('the open conversation is in the URL: a reload keeps it, an unknown or invalid id says so', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = await signedIn(browser, aliceName);
  const bob = await signedIn(browser, bobName);
  const bobId = await userIdOf(bob);

  // Someone new, opened from search: in the URL, and in the list at once.
  await alice.search(bobName.name);
  await alice.openFromSearch(bobName.name);
  await expect(alice.page).toHaveURL(new RegExp(`/main/${bobId}$`));
  await expect(alice.conversations.getByRole('button', { name: `${bobName.name} New conversation` })).toBeVisible();
  await expect(alice.page.getByText('No conversations yet.')).toHaveCount(0);

  await alice.send('Hello from the URL test');
  await expect(alice.thread(bobName.name).getByText('Sent', { exact: true })).toBeVisible();
  await alice.page.reload();
  await expect(alice.thread(bobName.name).getByText('Hello from the URL test')).toBeVisible();

  for (const path of ['/main/abc', '/main/0', '/main/999999999']) {
    await alice.page.goto(path);
    await expect(alice.page.getByText('This conversation doesn’t exist.').first()).toBeVisible();
    await expect(alice.conversations).toBeVisible();
  }
  await alice.page.getByRole('button', { name: 'Back to your conversations' }).click();
  await expect(alice.page).toHaveURL(/\/main$/);
});

test('on a phone, Back returns from a conversation to the list, not out of the app', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = await signedIn(browser, aliceName, PHONE);
  const bob = await signedIn(browser, bobName);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('Hi on your phone');

  // Back at once, on a slow connection: the conversation's history entry does not wait for the server.
  await slowPages(alice.page, 2_000);
  await alice.openConversation(bobName.name);
  await expect(alice.conversations).toBeHidden();
  await alice.page.goBack();
  await expect(alice.page).toHaveURL(/\/main$/);
  await expect(alice.conversations).toBeVisible();
  await expect(alice.thread(bobName.name)).toBeHidden();

  // The header's back button does the same.
  await alice.openConversation(bobName.name);
  await alice.page.getByRole('button', { name: 'Back to conversations' }).click();
  await expect(alice.page).toHaveURL(/\/main$/);
  await expect(alice.conversations).toBeVisible();
});

test('a draft stays with its conversation across switching and reloading, until sent', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const carolName = newPerson('Carol');
  const alice = await signedIn(browser, aliceName);
  for (const other of [bobName, carolName]) {
    const chat = await signedIn(browser, other);
    await chat.search(aliceName.name);
    await chat.openFromSearch(aliceName.name);
    await chat.send(`hello from ${other.name}`);
  }
  await alice.openConversation(bobName.name);
  await alice.composer.fill('half a thought for Bob');
  await alice.openConversation(carolName.name);
  await expect(alice.composer).toHaveValue('');
  await alice.openConversation(bobName.name);
  await expect(alice.composer).toHaveValue('half a thought for Bob');

  await alice.page.reload();
  await expect(alice.composer).toHaveValue('half a thought for Bob');
  await alice.composer.press('Enter');
  await expect(alice.thread(bobName.name).getByText('half a thought for Bob')).toBeVisible();
  // Shown at once as sending; the page is left only once the server has it ("Seen" may replace
  // "Sent" at once: Bob has the conversation open).
  await expect(alice.message(bobName.name, 'half a thought for Bob')).toHaveAttribute('data-status', 'sent');
  await alice.page.reload();
  await expect(alice.thread(bobName.name).getByText('half a thought for Bob')).toBeVisible();
  await expect(alice.composer).toHaveValue('');
});

test('scrolled up, new messages stay unread (badge, title) with a divider and a jump button that reads them', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = await signedIn(browser, aliceName);
  const bob = await signedIn(browser, bobName);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('filler 0');

  // Alice watches the conversation: what arrives while she sees the newest message is read.
  await alice.openConversation(bobName.name);
  const thread = new ThreadPage(alice.page, bobName.name);
  await expect(thread.message('filler 0')).toBeVisible();
  for (let i = 1; i <= 30; i += 1) await bob.send(`filler ${i}`);
  await expect(thread.message('filler 30')).toBeVisible();
  await expect(alice.unreadCount).toHaveText('0');

  await thread.scrollToTop();
  await bob.send('you cannot see this yet');
  await bob.send('nor this');
  // Not on screen: not read. The header, the tab title and the row say so.
  await expect(alice.unreadCount).toHaveText('2');
  await expect(alice.page).toHaveTitle(/^\(2\) /);
  await expect(alice.conversations.getByRole('button', { name: /nor this 2 unread messages$/ })).toBeVisible();
  await expect(thread.jumpButton).toHaveAccessibleName('Jump to latest, 2 new messages');
  await expect(alice.page.getByTestId('jump-count')).toHaveText('2');

  await thread.jumpButton.click();
  await expect(thread.message('nor this')).toBeVisible();
  await expect(alice.page.getByRole('separator', { name: '2 new messages' })).toBeVisible();
  await expect(alice.unreadCount).toHaveText('0');
  await expect(alice.page).not.toHaveTitle(/^\(\d+\) /);

  // Incoming messages are announced politely while the conversation is open.
  await bob.send('one more, announced');
  await expect(alice.page.getByTestId('incoming-announcement')).toHaveText(`${bobName.name}: one more, announced`);
});

test('links are clickable (http, https, mailto only); consecutive messages show one time; errors read plainly', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = await signedIn(browser, aliceName);
  const bob = await signedIn(browser, bobName);
  await bob.search(aliceName.name);
  await bob.openFromSearch(aliceName.name);
  await bob.send('docs at https://example.com/guide?x=1 or mail help@example.org');
  await bob.send('javascript:alert(1) is not a link');
  await bob.send('third in a row');

  await alice.openConversation(bobName.name);
  const thread = alice.thread(bobName.name);
  const link = thread.getByRole('link', { name: 'https://example.com/guide?x=1' });
  await expect(link).toHaveAttribute('href', 'https://example.com/guide?x=1');
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(thread.getByRole('link', { name: 'help@example.org' })).toHaveAttribute('href', 'mailto:help@example.org');
  await expect(thread.getByText('javascript:alert(1) is not a link')).toBeVisible();
  await expect(thread.getByRole('link', { name: /javascript/ })).toHaveCount(0);

  // Three messages within a minute: one group, one time.
  await expect(thread.locator('[data-own="false"]')).toHaveCount(3);
  await expect(thread.locator('[data-own="false"][data-group-end="true"]')).toHaveCount(1);
  // Each says who sent it, for screen readers.
  await expect(thread.locator('[data-own="false"]').first()).toContainText(`${bobName.name}:`);

  // A failure reads as a sentence in the reader's language, never the request line.
  await alice.page.route('**/api/c/*/messages*', (route) => route.abort('internetdisconnected'));
  await alice.page.reload();
  // (The client retries a failed GET twice first.)
  await expect(alice.page.getByText('Could not load messages: Can’t reach Parley. Check your connection.')).toBeVisible({ timeout: 30_000 });
  await expect(alice.page.getByText(/Request failed|http:\/\//)).toHaveCount(0);
  await alice.page.unroute('**/api/c/*/messages*');
  await alice.page.getByRole('button', { name: 'Try again' }).click();
  await expect(thread.getByText('third in a row')).toBeVisible();
});

test('an image pasted into the composer, or a file dropped on the conversation, is attached and sent', async ({ browser }) => {
  const aliceName = newPerson('Alice');
  const bobName = newPerson('Bob');
  const alice = await signedIn(browser, aliceName);
  const bob = await signedIn(browser, bobName);
  await alice.search(bobName.name);
  await alice.openFromSearch(bobName.name);
  const bytes = [...png(40, 30)];

  await alice.composer.evaluate((box, data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'pasted.png', { type: 'image/png' }));
    box.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
  }, bytes);
  await expect(alice.page.getByText('pasted.png is ready to send.')).toBeAttached();
  await alice.sendButton.click();
  await bob.openConversation(aliceName.name);
  await expect(bob.thread(aliceName.name).getByRole('img', { name: 'Image: pasted.png' })).toBeVisible();

  const notes = Buffer.from('plain notes\n');
  await alice.thread(bobName.name).evaluate((section, data) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([new Uint8Array(data)], 'notes.txt', { type: 'text/plain' }));
    for (const type of ['dragenter', 'dragover', 'drop']) {
      section.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }
  }, [...notes]);
  await expect(alice.page.getByText('notes.txt is ready to send.')).toBeAttached();
  await alice.sendButton.click();
  await expect(bob.thread(aliceName.name).getByRole('link', { name: 'Download notes.txt' })).toBeVisible();
  await expect(bob.thread(aliceName.name).getByText('12 bytes')).toBeVisible();
});

test('nothing unread: no grey 0 pill in the header, the sentence stays for screen readers', async ({ browser }) => {
  const alice = await signedIn(browser, newPerson('Alice'));
  const pill = alice.page.locator('[title="0 unread messages"]');
  await expect(pill).toHaveAttribute('data-empty', 'true');
  const box = await pill.boundingBox();
  expect(box?.width ?? 0).toBeLessThanOrEqual(1);
  await expect(alice.page.getByText('0 unread messages')).toBeAttached();
});

test('the language changes at once, offline too, and reaches the server once back online', async ({ browser }) => {
  const person = newPerson('Lang');
  const alice = await signedIn(browser, person);
  // The other languages are fetched in the background once the main area is up (3 s later):
  // offline only once a script the page loaded holds the French texts. Each script is read once:
  // reading them all on every poll filled the page's resource timing buffer (250 entries) with
  // the poll's own fetches, and the French script's entry, coming later, was dropped.
  const frenchLoaded = () =>
    alice.page.evaluate(async (text) => {
      const page = window as unknown as { readScripts?: Set<string> };
      const read = (page.readScripts ??= new Set());
      const scripts = performance
        .getEntriesByType('resource')
        .map((entry) => new URL(entry.name))
        .filter((url) => url.origin === location.origin && url.pathname.startsWith('/_next/static/') && url.pathname.endsWith('.js'));
      for (const url of scripts) {
        if (read.has(url.pathname)) continue;
        read.add(url.pathname);
        if ((await (await fetch(url)).text()).includes(text)) return true;
      }
      return false;
    }, 'Rechercher des personnes');
  await expect.poll(frenchLoaded, { timeout: 30_000 }).toBe(true);
  await goOffline(alice.page.context());
  await alice.page.getByRole('button', { name: 'Settings' }).click();
  await alice.page.getByRole('radio', { name: 'Français' }).click();
  await expect(alice.page.getByRole('heading', { name: 'Messages', level: 2, exact: true })).toBeVisible();
  await expect(alice.page.getByRole('searchbox', { name: 'Rechercher des personnes' })).toBeVisible();
  expect(await alice.page.evaluate(() => window.localStorage.getItem('locale'))).toBe('fr');

  await alice.page.context().setOffline(false);
  const token = await alice.page.evaluate(() => window.localStorage.getItem('token'));
  await expect
    .poll(async () => ((await (await alice.page.request.get('/api/accounts/info', { headers: { Authorization: token ?? '' } })).json()) as { language: string }).language, { timeout: 20_000 })
    .toBe('fr');
});
