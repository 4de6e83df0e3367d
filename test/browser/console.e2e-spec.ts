/**
 * The console in a real Chromium: what a user sees and can do on each page, against the real
 * service with seeded Buyers, Signals and knowledge base (test/support/browser.ts).
 */
import { PEOPLE_B, startBrowserHarness, waitForText, type BrowserHarness } from '../support/browser';
import { email, ingestAndWait, uniq, websiteActivity } from '../support/pipeline';
import { waitFor } from '../support/wait';

jest.setTimeout(90_000);

let h: BrowserHarness;

beforeAll(async () => {
  h = await startBrowserHarness();
}, 120_000);

afterAll(async () => {
  await h?.close();
});

describe('the console in Chromium', () => {
  it('signs in with email and password and lands on the Buyers list with their reasoning; a wrong password shows the error', async () => {
    const page = await h.newPage();
    await page.goto('/console/');
    // No session: the sign-in form.
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    await page.getByLabel('Email').fill(h.a.user.email);
    await page.getByLabel('Password').fill(`${h.a.user.password}-wrong`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // The API's own message for a wrong pair.
    const refused = await h.t.http.post('/console/api/session').send({ email: h.a.user.email, password: 'not-the-password' });
    expect(refused.body.error.code).toBe('authentication_error');
    const alert = page.getByRole('alert');
    await waitForText(alert, refused.body.error.message);
    expect(page.url()).toContain('/console/sign-in');
    await h.screenshot(page, 'sign-in-wrong-password');

    await page.getByLabel('Password').fill(h.a.user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/buyers');

    const list = page.getByRole('list', { name: 'Buyers' });
    for (const name of ['Greta Vogel', 'Sam Lee', 'Nina Novak']) await list.getByRole('link', { name }).waitFor();
    const greta = list.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Greta Vogel' }) });
    await waitForText(greta, 'CFO · Finanzhaus GmbH');
    await waitForText(greta, 'ICP: European fintech');
    await waitForText(greta, 'Persona: Finance leaders');
    // The reasoning the evaluator wrote, as the API has it.
    const buyer = await h.t.http.get(`/v1/buyers/${h.a.buyers.Greta}`).set('Authorization', h.a.auth);
    const reasoning = String(buyer.body.company_info.icp_reasoning);
    expect(reasoning.length).toBeGreaterThan(0);
    await waitForText(greta, reasoning.slice(0, 30));
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await h.screenshot(page, 'buyers');
  });

  it('filters the Buyers by when they were created', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    const list = page.getByRole('list', { name: 'Buyers' });
    await list.getByRole('link', { name: 'Greta Vogel' }).waitFor();

    await page.getByLabel('Created from').fill('2099-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No Buyers yet.').waitFor();
    expect(await list.getByRole('listitem').count()).toBe(0);

    await page.getByLabel('Created from').fill('2020-01-01T00:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await list.getByRole('link', { name: 'Greta Vogel' }).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await h.screenshot(page, 'buyers-filtered');
  });

  it('creates an ICP: the criteria panel follows the description as it is typed, the record is listed; an empty name is refused at its field', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.getByRole('link', { name: 'Knowledge base' }).click();
    await page.getByRole('heading', { level: 1, name: 'Knowledge base' }).waitFor();
    const form = page.getByRole('form', { name: 'New ICP' });
    await form.waitFor();
    const criteria = form.getByRole('list', { name: 'Criteria' });

    const description = form.getByLabel('Description');
    await description.pressSequentially('Industries: Software, Cybersecurity.', { delay: 5 });
    await waitForText(criteria, 'Cybersecurity');
    expect(await criteria.innerText()).not.toContain('Canada');
    await description.pressSequentially(' Countries: Canada, Ireland.', { delay: 5 });
    await waitForText(criteria, 'Canada');
    await waitForText(criteria, 'Ireland');
    await waitForText(criteria, 'Cybersecurity');
    // The words read as criteria are highlighted in the description.
    await waitForText(form.locator('mark'), 'Canada');

    // No name: the API's validation error, shown at the Name field.
    const shortName = `security-${uniq()}`;
    await form.getByLabel('Short name').fill(shortName);
    await form.getByRole('button', { name: 'Create' }).click();
    const name = form.getByRole('textbox', { name: 'Name', exact: true });
    await page.locator('#kb-name-error').waitFor();
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect((await page.locator('#kb-name-error').innerText()).trim()).not.toBe('');
    expect(await page.locator('#kb-short_name-error').count()).toBe(0);
    await h.screenshot(page, 'kb-icp-validation');

    await name.fill('Security software, Canada and Ireland');
    await form.getByRole('button', { name: 'Create' }).click();
    await waitForText(page.getByRole('status'), 'ICP Security software, Canada and Ireland created.');
    const row = page.getByRole('row').filter({ hasText: shortName });
    await row.getByRole('rowheader', { name: 'Security software, Canada and Ireland' }).waitFor();
    await h.screenshot(page, 'kb-icp-created');

    const listed = await h.t.http.get('/v1/kb/icps').set('Authorization', h.a.auth);
    const saved = listed.body.data.find((icp: { short_name: string }) => icp.short_name === shortName);
    expect(saved).toMatchObject({ name: 'Security software, Canada and Ireland', created_by: { type: 'console' } });
  });

  it('edits a Target Page in the console; the API reads the change', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.goto('/console/kb/target-pages');
    await page.getByRole('heading', { level: 2, name: 'Target Pages' }).waitFor();
    await page.getByRole('button', { name: 'Edit Pricing' }).click();
    const form = page.getByRole('form', { name: 'Edit Target Page Pricing' });
    const text = `Visitors comparing plans, edited ${uniq()}`;
    await form.getByLabel('Description').fill(text);
    await form.getByRole('button', { name: 'Save' }).click();
    await waitForText(page.getByRole('status'), 'Target Page Pricing saved.');
    await waitForText(page.getByRole('row').filter({ hasText: 'Pricing' }), text);
    await h.screenshot(page, 'kb-target-page-edited');

    const res = await h.t.http.get(`/v1/kb/target-pages/${h.a.targetPage.id}`).set('Authorization', h.a.auth);
    expect(res.status).toBe(200);
    expect(res.body.description).toBe(text);
    expect(res.body.url).toBe(h.a.targetPage.url);
  });

  it("opens a Buyer: the evaluation's criteria with pass, fail and unknown, and its Signals timeline", async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.getByRole('list', { name: 'Buyers' }).getByRole('link', { name: 'Nina Novak' }).click();
    await page.getByRole('heading', { level: 1, name: 'Nina Novak' }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/buyers/${h.a.buyers.Nina}`);

    const icp = page.getByRole('table', { name: 'ICP criteria' });
    const persona = page.getByRole('table', { name: 'Persona criteria' });
    await icp.waitFor();
    // Insurance in the Netherlands passes; her company's head count is not known.
    const results = async (table: typeof icp) => (await table.locator('tbody tr td:nth-child(2)').allInnerTexts()).map((s) => s.trim());
    const icpResults = await results(icp);
    expect(icpResults).toContain('pass');
    expect(icpResults).toContain('unknown');
    // A Platform Engineer is not a finance leader.
    expect(await results(persona)).toContain('fail');
    expect(await icp.getByRole('row').filter({ hasText: 'Insurance' }).count()).toBeGreaterThan(0);

    const timeline = page.getByRole('list', { name: 'Signals of this Buyer' });
    await waitForText(timeline, 'visited page');
    await waitForText(timeline, 'Pricing');
    expect(await timeline.getByRole('listitem').count()).toBe(1);
    await h.screenshot(page, 'buyer');
  });

  it('creates an API key (secret shown once) and revokes one: /v1 refuses the revoked key', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'Create API key' }).click();
    const secretBox = page.getByRole('textbox', { name: 'Secret' });
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^svc_live_/);
    const panel = (await page.getByRole('heading', { name: /^New read key / }).innerText()).trim();
    const id = panel.replace(/^New read key /, '');
    expect(id).toMatch(/^key_/);
    await h.screenshot(page, 'settings-key-created');

    const ok = await h.t.http.get('/v1/buyers').set('Authorization', `Bearer ${secret}`);
    expect(ok.status).toBe(200);

    await page.getByRole('button', { name: 'Done' }).click();
    await secretBox.waitFor({ state: 'detached' });
    // Never shown again, not even after a reload.
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    expect(await page.content()).not.toContain(secret);

    // The new key's row, named by the id the secret's panel showed.
    const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: id, exact: true }) });
    await waitForText(row, 'Active');
    await row.getByRole('button', { name: 'Revoke' }).click();
    const dialog = page.getByRole('dialog', { name: `Revoke key ${id}? It stops working at once.` });
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Revoke' }).waitFor({ state: 'detached' });
    expect(await row.innerText()).not.toContain('Active');
    await h.screenshot(page, 'settings-key-revoked');

    const refused = await h.t.http.get('/v1/buyers').set('Authorization', `Bearer ${secret}`);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('authentication_error');
  });

  it("keeps workspace A's user out of workspace B: B's Buyer and KB record are not found by URL, and B never shows in A's lists", async () => {
    const b = await h.seedWorkspace('Beta workspace', PEOPLE_B);
    const page = await h.newPage();
    await h.signIn(page);
    // A's lists, loaded: nothing of B's.
    const list = page.getByRole('list', { name: 'Buyers' });
    await list.getByRole('link', { name: 'Greta Vogel' }).waitFor();
    expect(await list.innerText()).not.toContain('Bruno');
    expect(await list.innerText()).not.toContain('Betaversicherung');

    await page.goto(`/console/buyers/${b.buyers.Bruno}`);
    const notFound = await h.t.http.get(`/v1/buyers/${b.buyers.Bruno}`).set('Authorization', h.a.auth);
    expect(notFound.status).toBe(404);
    await waitForText(page.getByRole('alert').first(), notFound.body.error.message);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Buyer');
    await page.getByRole('list', { name: 'Signals of this Buyer' }).waitFor({ state: 'attached' });
    await page.getByText('No Signals yet.').waitFor();
    const body = await page.locator('body').innerText();
    for (const word of ['Bruno', 'Berglund', 'Betaversicherung', 'VP Finance']) expect(body).not.toContain(word);
    await h.screenshot(page, 'isolation-buyer-not-found');

    // B's Target Page through the console's API by URL, with A's session: not found.
    const answer = await page.goto(`/console/api/kb/target-pages/${b.targetPage.id}`);
    expect(answer?.status()).toBe(404);
    expect(JSON.parse(await answer!.text()).error.code).toBe('not_found');
    expect(await page.locator('body').innerText()).not.toContain(b.site);

    await page.goto('/console/kb/target-pages');
    await page.getByRole('rowheader', { name: 'Pricing' }).first().waitFor();
    expect(await page.getByRole('table').innerText()).not.toContain(b.site);
    await page.goto('/console/signals');
    await page.getByRole('list', { name: 'Signal feed' }).getByRole('listitem').first().waitFor();
    expect(await page.getByRole('list', { name: 'Signal feed' }).innerText()).not.toContain(b.buyers.Bruno);
    await page.goto('/console/activities');
    await page.getByRole('table', { name: 'Recent activities' }).getByRole('row').nth(1).waitFor();
    const activities = await page.getByRole('table', { name: 'Recent activities' }).innerText();
    for (const id of [...b.processed.map((s) => s.id), b.discarded.id]) expect(activities).not.toContain(id);
  });

  it('shows a Signal ingested through the API in the live feed without a reload', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.getByRole('link', { name: 'Signals' }).click();
    await page.getByRole('heading', { level: 1, name: 'Signals' }).waitFor();
    const feed = page.getByRole('list', { name: 'Signal feed' });
    await feed.getByRole('listitem').first().waitFor();
    await page.getByText('Live: new Signals appear here as they arrive.').waitFor();
    // Marks this document: a reload would lose it.
    await page.evaluate('window.consoleTestMark = 7');

    const [status] = await ingestAndWait(h.t, h.a.ws, [
      websiteActivity('visited_page', `https://${h.a.site}/pricing`, {
        identity: { email: email('live') },
        contact: { name: { first: 'Liv', last: 'Feed' } },
      }),
    ]);
    expect(status.status).toBe('processed');
    await feed.getByRole('link', { name: status.buyer_id! }).waitFor({ timeout: 20_000 });
    // Newest first: at the top, once.
    expect(await feed.getByRole('listitem').first().innerText()).toContain(status.buyer_id!);
    expect(await feed.getByRole('link', { name: status.buyer_id! }).count()).toBe(1);
    expect(await page.evaluate('window.consoleTestMark')).toBe(7);
    await h.screenshot(page, 'signals-live');
  });

  it('shows a discarded activity with its reason and the Target Page it nearly matched', async () => {
    const page = await h.newPage();
    await h.signIn(page);
    await page.getByRole('link', { name: 'Activities' }).click();
    await page.getByRole('heading', { level: 1, name: 'Activities' }).waitFor();
    const row = page.getByRole('row').filter({ hasText: h.a.discarded.id });
    await row.waitFor();
    const text = await row.innerText();
    expect(text).toContain('discarded');
    expect(text).toContain('no target match');
    expect(text).toContain(`Closest: Target Page ${h.a.targetPage.id} (${h.a.site}/pricing); differs in host`);
    // A processed one links its Buyer.
    await page
      .getByRole('row')
      .filter({ hasText: h.a.processed[0].id })
      .getByRole('link', { name: `Buyer ${h.a.buyers.Greta}` })
      .waitFor();

    await page.getByLabel('Status').selectOption('discarded');
    await waitFor(
      () => page.getByRole('table', { name: 'Recent activities' }).locator('tbody tr').allInnerTexts(),
      (rows) => rows.length > 0 && rows.every((r) => r.includes('discarded')),
      { what: 'only discarded activities listed' },
    );
    await h.screenshot(page, 'activities');
  });

  it('works at phone width (navigation behind Menu) and by keyboard (Tab reaches the sign-in fields and button)', async () => {
    const page = await h.newPage({ width: 375, height: 740 });
    await page.goto('/console/sign-in');
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    const focused = () => page.evaluate<string>("document.activeElement?.id || document.activeElement?.textContent || ''");
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('email');
    await page.keyboard.type(h.a.user.email);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('password');
    await page.keyboard.type(h.a.user.password);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();

    // The Buyers fit the width; the navigation is folded behind Menu.
    await page.getByRole('list', { name: 'Buyers' }).getByRole('link', { name: 'Greta Vogel' }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    const nav = page.getByRole('navigation', { name: 'Console' });
    const signals = nav.getByRole('link', { name: 'Signals' });
    expect(await signals.isVisible()).toBe(false);
    const menu = page.getByRole('button', { name: 'Menu' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await h.screenshot(page, 'phone-buyers');
    await menu.click();
    await signals.waitFor({ state: 'visible' });
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await h.screenshot(page, 'phone-menu');
    await signals.click();
    await page.getByRole('heading', { level: 1, name: 'Signals' }).waitFor();
    // The menu folds again after navigating.
    await signals.waitFor({ state: 'hidden' });
  });
});
