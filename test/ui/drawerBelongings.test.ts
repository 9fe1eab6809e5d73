import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { RecordingSocket } from '../helpers/wsClient';
import { DEMO_CONFIG } from './demoBoard';
import { closeDrawer, createCard, DRAWER, fileEventually, openDrawer, TINY_PNG } from './drawerHelpers';
import { eventually, startUi, stopUi, type UiContext } from './uiHelpers';

const FORMS_CONFIG = {
  ...DEMO_CONFIG,
  forms: {
    'release-check': {
      name: 'Release check',
      schema: {
        type: 'object',
        properties: {
          version: { type: 'string', title: 'Version' },
          approvals: { type: 'integer', minimum: 1, title: 'Approvals' },
          risk: { type: 'string', enum: ['low', 'medium', 'high'] },
          hotfix: { type: 'boolean', title: 'Hotfix' },
        },
        required: ['version', 'approvals'],
      },
    },
  },
};

describe('Board UI: attachments, logs, forms and actions in the card drawer (Chromium)', function () {
  this.timeout(60_000);
  let ui: UiContext;
  let id: string;
  const title = 'Ship release 2.4';

  before(async () => {
    ui = await startUi({ config: FORMS_CONFIG });
    id = await createCard(ui.server, {
      content: `# ${title}\n\nCut the branch, run the checks.\n`,
      status: 'in-progress',
      forms: [
        { name: 'release-check' },
        {
          name: 'Quick poll',
          schema: {
            type: 'object',
            properties: { mood: { type: 'string', enum: ['calm', 'busy'] }, ready: { type: 'boolean' } },
            required: ['mood'],
          },
        },
      ],
      actions: { deploy: 'Deploy to staging', notify: 'Notify the team' },
    });
    await ui.page.reload();
    await ui.page.waitForSelector('[data-card-id]');
    await openDrawer(ui.page, title);
  });

  after(async () => {
    await stopUi(ui);
  });

  function attachmentFile(name: string): string {
    return path.join(ui.server.root, '.kanban', 'boards', 'default', 'attachments', id, name);
  }

  it('when a file is uploaded through the picker, then it is listed, downloads with the same bytes and can be deleted', async () => {
    const page = ui.page;
    const bytes = Buffer.from('line one\nline two: ünïcødé\n\u0000binary tail', 'utf8');
    await page.setInputFiles(`${DRAWER} [data-testid="attachment-input"]`, {
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: bytes,
    });
    await page.waitForSelector(`${DRAWER} [data-attachment="notes.txt"]`);
    await eventually(async () => existsSync(attachmentFile('notes.txt')), 'the attachment is stored', 10_000);
    assert.deepEqual(readFileSync(attachmentFile('notes.txt')), bytes);
    await fileEventually(ui.server, id, (t) => t.includes('notes.txt'), 'the card file lists the attachment');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`${DRAWER} button[aria-label="Download notes.txt"]`),
    ]);
    assert.equal(download.suggestedFilename(), 'notes.txt');
    assert.deepEqual(readFileSync((await download.path()) as string), bytes);

    await page.locator(`${DRAWER} [data-attachment="notes.txt"] .icon-btn`).nth(1).click();
    await page.click(`${DRAWER} [data-attachment="notes.txt"] button:has-text("Delete")`);
    await page.waitForSelector(`${DRAWER} [data-attachment="notes.txt"]`, { state: 'detached' });
    await eventually(async () => !existsSync(attachmentFile('notes.txt')), 'the attachment file is removed', 10_000);
    await fileEventually(ui.server, id, (t) => !t.includes('notes.txt'), 'the card file no longer lists it');
  });

  it('when an image is dropped onto the drawer, then it is uploaded and previewed', async () => {
    const page = ui.page;
    await page.evaluate((base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const transfer = new DataTransfer();
      transfer.items.add(new File([bytes], 'pixel.png', { type: 'image/png' }));
      const target = document.querySelector('[data-testid="card-drawer"] .drawer-main') as HTMLElement;
      target.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      target.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, TINY_PNG.toString('base64'));
    const preview = page.locator(`${DRAWER} [data-attachment="pixel.png"] img.attachment-thumb`);
    await preview.waitFor();
    await eventually(
      async () => (await preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 2,
      'the preview decodes',
      10_000,
    );
    assert.deepEqual(readFileSync(attachmentFile('pixel.png')), TINY_PNG);
  });

  it('when log lines are added here and through the API, then they are listed, and Clear empties the log', async () => {
    const page = ui.page;
    const drawer = page.locator(DRAWER);
    await drawer.locator('input[name="log"]').fill('Branch `release/2.4` cut');
    await drawer.locator('[aria-label="Log"] button:has-text("Add")').click();
    await drawer.locator('.log-entry code', { hasText: 'release/2.4' }).waitFor();
    assert.equal(
      (await ui.server.api('POST', `/api/tasks/${id}/logs`, { text: 'CI passed', source: 'ci' })).status,
      201,
    );
    await drawer.locator('.log-entry', { hasText: 'CI passed' }).waitFor();
    assert.match((await drawer.locator('.log-entry', { hasText: 'CI passed' }).textContent()) ?? '', /ci/);
    await drawer.locator('[aria-label="Log"] button:has-text("Clear")').click();
    await drawer.locator('[aria-label="Log"] button:has-text("Clear log")').click();
    await drawer.getByText('No log entries.').waitFor();
    await eventually(
      async () => (await ui.server.api('GET', `/api/tasks/${id}/logs`)).body?.data?.length === 0,
      'the server cleared the log',
    );
  });

  it('when a form is submitted with invalid data, then the server message names the fields; valid data is saved', async () => {
    const page = ui.page;
    const form = page.locator(`${DRAWER} form[data-form-id="release-check"]`);
    assert.equal(await form.locator('.card-form-title').textContent(), ' Release check');
    assert.deepEqual(await form.locator('select[name="risk"] option').allTextContents(), [
      '—',
      'low',
      'medium',
      'high',
    ]);
    await form.locator('input[name="approvals"]').fill('0');
    await form.locator('button[type="submit"]').click();
    const message = (await form.locator('.form-error').textContent()) ?? '';
    assert.match(message, /"version" is required/);
    assert.match(message, /"approvals" must be >= 1/);
    assert.equal((await ui.server.api('GET', `/api/tasks/${id}`)).body?.data.formData['release-check'], undefined);

    await form.locator('input[name="version"]').fill('2.4.0');
    await form.locator('input[name="approvals"]').fill('2');
    await form.locator('select[name="risk"]').selectOption('medium');
    await form.locator('input[name="hotfix"]').check();
    await form.locator('button[type="submit"]').click();
    await form.locator('.form-error').waitFor({ state: 'detached' });
    await page.waitForSelector('.toast:has-text("Form saved")');
    const saved = (await ui.server.api('GET', `/api/tasks/${id}`)).body?.data.formData['release-check'];
    assert.deepEqual(saved, { version: '2.4.0', approvals: 2, risk: 'medium', hotfix: true });
    await fileEventually(
      ui.server,
      id,
      (t) => t.includes('formData:') && t.includes('2.4.0'),
      'form data in the card file',
    );
  });

  it('when an inline card form is submitted, then its data is stored under the id the server gives it', async () => {
    const page = ui.page;
    const form = page.locator(`${DRAWER} form[data-form-id="quick-poll"]`);
    await form.locator('button[type="submit"]').click();
    assert.match((await form.locator('.form-error').textContent()) ?? '', /"mood" is required/);
    await form.locator('select[name="mood"]').selectOption('busy');
    await form.locator('button[type="submit"]').click();
    await form.locator('.form-error').waitFor({ state: 'detached' });
    await eventually(
      async () => (await ui.server.api('GET', `/api/tasks/${id}`)).body?.data.formData['quick-poll']?.mood === 'busy',
      'inline form data saved',
      10_000,
    );
    assert.deepEqual((await ui.server.api('GET', `/api/tasks/${id}`)).body?.data.formData['quick-poll'], {
      mood: 'busy',
      ready: false,
    });
  });

  it('when a card action button is pressed, then card.action.triggered goes out on the event stream and a toast confirms', async () => {
    const page = ui.page;
    const socket = await RecordingSocket.connect(ui.server.url.replace(/^http/, 'ws') + '/ws');
    try {
      assert.deepEqual(await page.locator(`${DRAWER} [aria-label="Actions"] button`).allTextContents(), [
        ' Deploy to staging',
        ' Notify the team',
      ]);
      await page.click(`${DRAWER} button[data-action="deploy"]`);
      const event = await socket.waitFor((m) => m.event === 'card.action.triggered');
      assert.equal(event.data.action, 'deploy');
      assert.equal(event.data.taskId, id);
      await page.waitForSelector('.toast:has-text("Deploy to staging")');
    } finally {
      socket.socket.close();
    }
    await closeDrawer(page);
    assert.deepEqual(ui.pageErrors, []);
  });
});
