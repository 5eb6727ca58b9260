// The three languages' own texts, so a spec can find its way in each (lib/i18n/locales).
import { expect, type Page } from '@playwright/test';
import { en } from '../../lib/i18n/locales/en';
import { es } from '../../lib/i18n/locales/es';
import { fr } from '../../lib/i18n/locales/fr';

export const TEXTS = { en, es, fr } as const;
export type Language = keyof typeof TEXTS;
export const LANGUAGES = Object.keys(TEXTS) as Language[];

/** From the header's settings menu, as a person would; the menu is closed again after. */
export async function switchLanguage(page: Page, from: Language, to: Language): Promise<void> {
  if (from === to) return;
  await page.getByRole('button', { name: TEXTS[from].header.openSettings, exact: true }).click();
  // The choice shows once the language is loaded and saved, so click and wait rather than check().
  const choice = page.getByRole('radio', { name: en.languages[to] });
  await choice.click();
  await expect(choice).toBeChecked();
  await expect(page.locator('html')).toHaveAttribute('lang', to);
  await page.keyboard.press('Escape');
  await expect(choice).toBeHidden();
}
