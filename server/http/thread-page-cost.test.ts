import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { threadPageCost } from './conversations-routes';

const cost = (query: Record<string, unknown>) => threadPageCost({ query } as unknown as FastifyRequest);

describe('threadPageCost', () => {
  it('charges one per 50 messages the page may read: the app’s page one, the largest two', () => {
    expect([cost({}), cost({ limit: '1' }), cost({ limit: '50' }), cost({ limit: '51' }), cost({ limit: '100' })]).toEqual([1, 1, 1, 2, 2]);
  });

  it('charges a limit the route will refuse as the largest page', () => {
    for (const limit of ['0', '101', '1000', 'x', '-1', ['1', '2'], '1e3', '']) expect(cost({ limit })).toBe(2);
  });
});
