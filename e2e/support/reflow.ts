// Reflow, measured: nothing a person should see may lie past the edges of the window, and the page
// itself never scrolls (the app scrolls inside its own panes). WCAG 1.4.10 asks for everything to
// work at 320 CSS pixels wide without scrolling sideways.
import { expect, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import { newPerson } from '../fixtures';
import { goOffline } from './network';
import { DESKTOP, signedIn, userIdOf } from './people';
import { readStorage } from './storage';

/**
 * What is out of place on the page as it is now, one line each (empty when all fits): the page
 * scrolling either way, any element whose box crosses an edge of the window, text running past
 * the window's sides, a pane that scrolls sideways, and an icon squashed narrower than drawn.
 *
 * Left alone, because nobody sees them there: visually hidden text (inside a box of a pixel or
 * less that clips), what a pane scrolls vertically (its messages above and below), and text an
 * ellipsis shortens.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const problems: string[] = [];
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > width) problems.push(`the page is ${root.scrollWidth} px wide in a ${width} px window`);
    if (root.scrollHeight > height) problems.push(`the page is ${root.scrollHeight} px tall in a ${height} px window`);
    if (window.scrollX !== 0 || window.scrollY !== 0) problems.push(`the page is scrolled to ${window.scrollX}, ${window.scrollY}`);

    const describe = (element: Element) => {
      const label = element.getAttribute('aria-label') ?? (element.textContent ?? '').trim().slice(0, 40);
      const className = typeof element.className === 'string' ? element.className.split(' ')[0] : '';
      return `<${element.tagName.toLowerCase()}${className ? ` .${className}` : ''}> "${label}"`;
    };
    const clips = (style: CSSStyleDeclaration) => style.overflowX !== 'visible' || style.overflowY !== 'visible' || style.clip !== 'auto' || style.clipPath !== 'none';
    const scrollsVertically = (style: CSSStyleDeclaration) => style.overflowY === 'auto' || style.overflowY === 'scroll';

    // Per element: hidden from sight (in a clipping box of a pixel or less), inside a vertical
    // pane, inside an ellipsis. Ancestors first, so each answer builds on its parent's.
    const hiddenBy = new Map<Element, boolean>();
    const inPane = new Map<Element, boolean>();
    const shortened = new Map<Element, boolean>();
    const visit = (element: Element, parent: Element | null) => {
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      const parentHidden = parent ? hiddenBy.get(parent)! : false;
      const tiny = clips(style) && (box.width <= 1 || box.height <= 1);
      const hidden = parentHidden || style.display === 'none' || style.visibility === 'hidden';
      hiddenBy.set(element, hidden || tiny);
      inPane.set(element, (parent ? inPane.get(parent)! : false) || (parent !== null && scrollsVertically(getComputedStyle(parent))));
      shortened.set(element, (parent ? shortened.get(parent)! : false) || (style.textOverflow === 'ellipsis' && style.overflowX !== 'visible'));
      // Hidden text itself is a pixel wide, placed anywhere; what it adds to the page, the page's
      // size above says.
      if (!hidden && !tiny && box.width + box.height > 0) {
        const sideways = box.left < -0.5 || box.right > width + 0.5;
        const offVertically = !inPane.get(element) && (box.top < -0.5 || box.bottom > height + 0.5);
        if (sideways || offVertically) {
          problems.push(`${describe(element)} spans x ${Math.round(box.left)}–${Math.round(box.right)}, y ${Math.round(box.top)}–${Math.round(box.bottom)}`);
        }
        // An icon drawn at a set size and given less: squashed by its button.
        const drawn = element instanceof SVGSVGElement ? Number(element.getAttribute('width')) : 0;
        if (drawn > 0 && box.width < drawn - 0.5) problems.push(`${describe(element.parentElement ?? element)}: its icon is ${box.width} px wide, drawn for ${drawn}`);
        if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && element.scrollWidth > element.clientWidth + 1) {
          problems.push(`${describe(element)} scrolls sideways: ${element.scrollWidth} px of content in ${element.clientWidth} px`);
        }
      }
      for (const child of element.children) visit(child, element);
    };
    visit(document.body, null);

    // Text past the window's sides: a word too long for its box, a label wider than its button.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || !node.textContent?.trim() || hiddenBy.get(parent) || shortened.get(parent)) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of range.getClientRects()) {
        if (rect.width > 0 && (rect.left < -0.5 || rect.right > width + 0.5)) {
          problems.push(`text "${node.textContent.trim().slice(0, 40)}" in ${describe(parent)} spans x ${Math.round(rect.left)}–${Math.round(rect.right)}`);
          break;
        }
      }
    }
    return problems;
  });
}

/**
 * A conversation with everything that competes for a phone's width, as the viewer sees it: a
 * long name, the mute bell and Follow in its header; the peer's long link; the viewer's own
 * messages with "Seen", one unsent ("Message deleted") and one refused for good (with its reason
 * and "Remove": the peer blocked them for a moment); a draft in the composer, focused.
 */
export async function crowdedConversation(browser: Browser, viewerOptions: BrowserContextOptions) {
  const viewerName = newPerson('Alice');
  const peerName = newPerson('Maximiliana');
  const viewer = await signedIn(browser, viewerName, viewerOptions);
  const peer = await signedIn(browser, peerName, DESKTOP);
  await peer.search(viewerName.name);
  await peer.openFromSearch(viewerName.name);
  await peer.send('Hello! Are you coming tonight?');
  await peer.send(`The address is on ${LONG_LINK}`);

  await viewer.openConversation(peerName.name);
  const thread = viewer.thread(peerName.name);
  await viewer.send('Yes, see you at eight.');
  await viewer.send('Sorry, wrong chat');
  // From the keyboard, which reaches a message's actions on every screen.
  await viewer.message(peerName.name, 'Sorry, wrong chat').getByRole('button', { name: 'Message actions' }).focus();
  await viewer.page.keyboard.press('Enter');
  await viewer.page.getByRole('menuitem', { name: 'Unsend for everyone' }).click();
  await viewer.page.getByRole('dialog', { name: 'Unsend this message?' }).getByRole('button', { name: 'Unsend for everyone' }).click();
  await expect(thread.getByText('Message deleted')).toBeVisible();
  await viewer.send('Shall I bring anything?');
  await expect(thread.getByTestId('seen')).toBeVisible();

  // Written offline and blocked before it goes: once the viewer's screen learns of the block (any
  // read of the peer's profile after it says so), the message box gives way, so the message must
  // already wait in the outbox when the block lands. It is refused as it leaves.
  const { token } = await readStorage(peer.page);
  const block = `/api/users/${await userIdOf(viewer)}/block`;
  await goOffline(viewer.page.context());
  await viewer.send('Hello? Are you there?');
  await expect(thread.locator('[data-own="true"][data-status="sending"]').getByText('Hello? Are you there?')).toBeVisible();
  const blocked = await peer.page.request.put(block, { headers: { Authorization: token ?? '' } });
  expect(blocked.status()).toBe(200);
  await viewer.page.context().setOffline(false);
  await expect(thread.getByRole('button', { name: 'Remove this unsent message' })).toBeVisible({ timeout: 20_000 });
  // Unblocked at once, which the viewer is not told (the refusal's answer hid the composer): the
  // refused message stays as it is.
  const unblocked = await peer.page.request.delete(block, { headers: { Authorization: token ?? '' } });
  expect(unblocked.status()).toBe(200);
  // A message from the peer is a fact the viewer's screen follows: the composer comes back.
  await peer.send('Sorry, that was me.');
  await expect(thread.getByText('Sorry, that was me.')).toBeVisible();
  await viewer.composer.fill('A draft');
  await viewer.composer.focus();
  return { viewer, peer, viewerName, peerName };
}

const LONG_LINK = 'https://example.com/events/2026/summer-party/directions-and-parking-information-for-guests';
