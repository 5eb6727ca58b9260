import { expect, type Locator, type Page } from '@playwright/test';

/** The main area's messaging UI: search, conversation list, thread and composer. */
export class ChatPage {
  readonly searchBox: Locator;
  readonly searchResults: Locator;
  readonly conversations: Locator;
  readonly composer: Locator;
  readonly unreadCount: Locator;
  readonly fileInput: Locator;
  readonly sendButton: Locator;

  constructor(readonly page: Page) {
    this.searchBox = page.getByRole('searchbox', { name: 'Search people' });
    this.searchResults = page.getByRole('region', { name: 'Search people' });
    this.conversations = page.getByRole('navigation', { name: 'Messages' });
    this.composer = page.getByRole('textbox', { name: 'Message' });
    this.unreadCount = page.getByTestId('unread-count');
    this.fileInput = page.locator('input[type="file"]');
    this.sendButton = page.getByRole('button', { name: 'Send', exact: true });
  }

  /** A search result's main button: named by the person, followed by chips like "Follows you". */
  searchResult(name: string): Locator {
    return this.searchResults.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`) });
  }

  /** A search result's "Message" action: a link to the conversation's address. */
  messageLink(name: string): Locator {
    return this.searchResults.getByRole('link', { name: `Message ${name}` });
  }

  /** Types `name` and waits for the answer to it: the person listed and the list no longer loading. */
  async search(name: string) {
    await this.searchBox.fill(name);
    await expect(this.searchResult(name)).toBeVisible();
    await this.searchSettled();
  }

  /**
   * Waits until the list shown answers what is in the box. While a newer query loads, the older
   * answer stays on screen, dimmed and marked busy, and may already hold the person looked for.
   */
  async searchSettled() {
    await expect(this.searchResults.locator('[aria-busy="true"]')).toHaveCount(0);
  }

  thread(name: string): Locator {
    return this.page.getByRole('region', { name: `Conversation with ${name}` });
  }

  /** One message in the conversation with `name`, by what it says. */
  message(name: string, text: string | RegExp): Locator {
    return this.thread(name).locator('[data-own]').filter({ hasText: text });
  }

  /** Opens a message's actions menu and picks an item (a reaction, "Edit", "Delete for me"…). */
  /**
   * Opens a message's actions and picks one: by pointer where the screen has hover, else (a touch
   * screen shows "⋯" only while focused, message-layout.spec.ts covers its long press) by keyboard.
   */
  async messageAction(name: string, text: string | RegExp, item: string | RegExp) {
    const actions = this.message(name, text).getByRole('button', { name: 'Message actions' });
    if (await this.page.evaluate(() => matchMedia('(hover: none)').matches)) {
      await actions.focus();
      await actions.press('Enter');
    } else {
      await actions.click();
    }
    await this.page.getByRole('menu', { name: 'Message actions' }).getByRole('menuitem', { name: item }).click();
  }

  async openFromSearch(name: string) {
    await this.searchResult(name).click();
    await expect(this.thread(name)).toBeVisible();
  }

  /** A person's row in the conversation list (named by them, then the last message's time…). */
  conversationRow(name: string): Locator {
    return this.conversations.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`) });
  }

  async openConversation(name: string) {
    await this.conversations.getByRole('button', { name: new RegExp(`^${escapeRegExp(name)}`) }).click();
    await expect(this.thread(name)).toBeVisible();
  }

  async send(text: string) {
    await this.composer.fill(text);
    await this.composer.press('Enter');
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
