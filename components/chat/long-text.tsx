import { useId, useLayoutEffect, useRef, useState } from 'react';
import { useViewStore } from '@/lib/stores/view-store';
import { useT } from '@/lib/i18n';
import { MessageText } from './message-text';
import styles from './long-text.module.css';

/**
 * A message's text, shortened to a dozen lines when it is longer (the height is in
 * long-text.module.css, `.textBox[data-collapsed]`), with "Read more" and "Show less". Whether it is
 * long is measured, not counted in characters: it depends on the width and the words. What the
 * reader opened stays open while the list unmounts and remounts it (useViewStore), so scrolling
 * back to it does not change its height under the reader.
 */
export function LongText({ text, messageKey }: { text: string; messageKey: string }) {
  const t = useT();
  const id = useId();
  const expanded = useViewStore((state) => state.expanded[messageKey] === true);
  // Opened in full earlier: it was long then.
  const [long, setLong] = useState(expanded);
  const box = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useLayoutEffect(() => {
    const element = box.current;
    if (expanded || !element) return;
    const measure = () => setLong(element.scrollHeight > element.clientHeight + 1);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [expanded, text]);

  return (
    <>
      <div ref={box} id={`${id}-text`} className={styles.textBox} data-collapsed={!expanded} data-long={long}>
        <MessageText className={styles.text} text={text} />
      </div>
      {long ? (
        <button
          ref={toggle}
          type="button"
          className={styles.readMore}
          aria-expanded={expanded}
          aria-controls={`${id}-text`}
          onClick={() => {
            useViewStore.getState().setExpanded(messageKey, !expanded);
            // "Show less" far down a long text: the toggle comes back into view (a discrete
            // event's update is on the page by the next frame).
            if (expanded) requestAnimationFrame(() => toggle.current?.scrollIntoView({ block: 'nearest' }));
          }}
        >
          {expanded ? t('thread.showLess') : t('thread.readMore')}
        </button>
      ) : null}
    </>
  );
}
