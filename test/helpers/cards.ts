import type { Card } from '../../server/core/model';

/** A stored card with plain defaults, for unit tests of pure logic; override what the test is about. */
export function makeCard(overrides: Partial<Card> = {}): Card {
  return {
    id: 'sample-card-2026-01-01',
    boardId: 'default',
    status: 'backlog',
    content: '# Sample card\n',
    priority: 'medium',
    labels: [],
    metadata: {},
    forms: [],
    formData: {},
    attachments: [],
    comments: [],
    order: '3i00',
    created: '2026-01-01T10:00:00.000Z',
    modified: '2026-01-01T10:00:00.000Z',
    ...overrides,
  };
}
