/**
 * Browser tests of the console: the real service (the API's AppModule and configureApp, the
 * console and its built UI from `dist/console-ui`, pipeline workers inline, real PostgreSQL and
 * Redis on a database of its own) listening on a free port, driven by Debian's Chromium through
 * playwright-core. One harness per test file, started in `beforeAll`.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { ConsoleUsersService } from '../../src/modules/console/console-users.service';
import { createKb, email, ingestAndWait, PIPELINE_APP_ENV, uniq, websiteActivity, type ActivityStatus } from './pipeline';
import { startTestApp, type TestApp, type TestWorkspace } from './test-app';

export const UI_DIRECTORY = resolve(__dirname, '..', '..', 'dist', 'console-ui');
export const SCREENSHOT_DIRECTORY = resolve(__dirname, '..', 'browser', 'screenshots');

/** `CHROMIUM_PATH`, else Debian's Chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH?.trim() || '/usr/bin/chromium';
}

/** A person the seed sends through the pipeline: one website visit each, so one Buyer each. */
export interface SeedPerson {
  first: string;
  last: string;
  title: string;
  fn: string;
  seniority: string;
  company: Record<string, unknown>;
}

export const FINTECH_ICP =
  'Fintech and insurance companies. Industries: Financial Services, Insurance. Employees: 50-1000. Countries: Germany, France, Netherlands.';
export const FINANCE_PERSONA = 'Titles: CFO, VP Finance, Finance Director. Function: Finance. Seniority: C-level, VP, Director.';

/** Workspace A's people: a full match, a miss on both, and one whose head count is not known. */
export const PEOPLE_A: SeedPerson[] = [
  {
    first: 'Greta',
    last: 'Vogel',
    title: 'CFO',
    fn: 'Finance',
    seniority: 'C-level',
    company: {
      name: 'Finanzhaus GmbH',
      website: 'https://www.finanzhaus-example.de',
      industries: ['Financial Services'],
      employee_count: 200,
      location: { city: 'Frankfurt', country: 'Germany' },
    },
  },
  {
    first: 'Sam',
    last: 'Lee',
    title: 'Software Engineer',
    fn: 'Engineering',
    seniority: 'Individual Contributor',
    company: {
      name: 'MegaMart Inc',
      website: 'https://www.megamart-example.com',
      industries: ['Retail'],
      employee_count: 5000,
      location: { city: 'Bentonville', state: 'Arkansas', country: 'United States' },
    },
  },
  {
    first: 'Nina',
    last: 'Novak',
    title: 'Platform Engineer',
    fn: 'Engineering',
    seniority: 'Individual Contributor',
    company: {
      name: 'Polis Verzekeringen',
      website: 'https://www.polis-example.nl',
      industries: ['Insurance'],
      location: { city: 'Utrecht', country: 'Netherlands' },
    },
  },
];

/** Workspace B's people: names that appear nowhere in A. */
export const PEOPLE_B: SeedPerson[] = [
  {
    first: 'Bruno',
    last: 'Berglund',
    title: 'VP Finance',
    fn: 'Finance',
    seniority: 'VP',
    company: {
      name: 'Betaversicherung AG',
      website: 'https://www.betaversicherung-example.de',
      industries: ['Insurance'],
      employee_count: 400,
      location: { city: 'Munich', country: 'Germany' },
    },
  },
];

export interface SeededWorkspace {
  ws: TestWorkspace;
  name: string;
  /** The console user's sign-in. */
  user: { email: string; password: string; user_id: string };
  /** `Authorization` header value of a write key. */
  auth: string;
  icp: Record<string, any>;
  persona: Record<string, any>;
  targetPage: Record<string, any>;
  /** The site the Target Page is on (`<site>/pricing`). */
  site: string;
  /** One processed activity per person, in the order of the people. */
  processed: ActivityStatus[];
  /** A `www.` visit of the pricing page: discarded `no_target_match`, its near miss the Target Page. */
  discarded: ActivityStatus;
  /** Buyer ids by first name. */
  buyers: Record<string, string>;
}

export interface BrowserHarness {
  t: TestApp;
  browser: Browser;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  /** Workspace A, seeded. */
  a: SeededWorkspace;
  /** A fresh workspace with an ICP, a Persona, a Target Page, Buyers, Signals and a discarded activity. */
  seedWorkspace(name: string, people: SeedPerson[]): Promise<SeededWorkspace>;
  /** A page in a context of its own (no cookies shared with other tests). */
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  /** Opens `/console/sign-in`, signs in, waits for the Buyers page. */
  signIn(page: Page, user?: { email: string; password: string }): Promise<void>;
  /** A screenshot of the page's viewport at `test/browser/screenshots/<name>.png`. */
  screenshot(page: Page, name: string): Promise<string>;
  close(): Promise<void>;
}

async function seed(t: TestApp, name: string, people: SeedPerson[]): Promise<SeededWorkspace> {
  const created = await t.workspaces.createWorkspace(name);
  const ws: TestWorkspace = { ...created, auth: `Bearer ${created.api_key}` };
  const u = uniq();
  const site = `buyers-${u}.example.com`;
  const icp = await createKb(t, ws, 'icps', { name: 'European fintech', short_name: `fintech-${u}`, description: FINTECH_ICP });
  const persona = await createKb(t, ws, 'personas', { name: 'Finance leaders', short_name: `finance-${u}`, description: FINANCE_PERSONA });
  const targetPage = await createKb(t, ws, 'target-pages', {
    name: 'Pricing',
    short_name: `pricing-${u}`,
    url: `${site}/pricing`,
    description: 'Visitors comparing plans',
  });
  const activities = people.map((person, index) =>
    websiteActivity('visited_page', `https://${site}/pricing`, {
      identity: { email: email(person.first.toLowerCase()) },
      occurred_at: `2026-03-0${index + 1}T10:00:00Z`,
      contact: {
        name: { first: person.first, last: person.last },
        role: { title: person.title, function: person.fn, seniority: person.seniority },
      },
      company: person.company,
    }),
  );
  const processed = await ingestAndWait(t, ws, activities);
  for (const status of processed) if (status.status !== 'processed') throw new Error(`Seed activity ${JSON.stringify(status)}`);
  const [discarded] = await ingestAndWait(t, ws, [websiteActivity('visited_page', `https://www.${site}/pricing`)]);
  if (discarded.discard_reason !== 'no_target_match' || !discarded.near_miss) throw new Error(`Seed discard ${JSON.stringify(discarded)}`);
  const user = await t.app.get(ConsoleUsersService).createUser(created.workspace_id, `console-${u}@example.com`);
  const buyers = Object.fromEntries(people.map((person, index) => [person.first, processed[index].buyer_id!]));
  return { ws, name, user, auth: ws.auth, icp, persona, targetPage, site, processed, discarded, buyers };
}

export async function startBrowserHarness(): Promise<BrowserHarness> {
  if (!existsSync(join(UI_DIRECTORY, 'index.html'))) throw new Error(`The console UI is not built (${UI_DIRECTORY}): run npm run build`);
  const executablePath = chromiumPath();
  if (!existsSync(executablePath)) throw new Error(`No Chromium at ${executablePath}: install Debian's chromium or set CHROMIUM_PATH`);
  mkdirSync(SCREENSHOT_DIRECTORY, { recursive: true });

  const t = await startTestApp({ ...PIPELINE_APP_ENV, CONSOLE_ENABLED: 'true', CONSOLE_UI_DIR: UI_DIRECTORY });
  let browser: Browser | undefined;
  try {
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}`;
    // Chromium's sandbox refuses to run as root.
    const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
    browser = await chromium.launch({ executablePath, headless: true, args: asRoot ? ['--no-sandbox'] : [] });
    const a = await seed(t, 'Acme workspace', PEOPLE_A);
    const contexts: BrowserContext[] = [];
    const launched = browser;

    return {
      t,
      browser: launched,
      baseUrl,
      a,
      seedWorkspace: (name, people) => seed(t, name, people),
      async newPage({ width = 1280, height = 800 } = {}) {
        const context = await launched.newContext({ baseURL: baseUrl, viewport: { width, height } });
        contexts.push(context);
        return context.newPage();
      },
      async signIn(page, user = a.user) {
        await page.goto('/console/sign-in');
        await page.getByLabel('Email').fill(user.email);
        await page.getByLabel('Password').fill(user.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.getByRole('heading', { level: 1, name: 'Buyers' }).waitFor();
      },
      async screenshot(page, name) {
        const path = join(SCREENSHOT_DIRECTORY, `${name}.png`);
        await page.screenshot({ path });
        return path;
      },
      async close() {
        for (const context of contexts) await context.close().catch(() => undefined);
        await launched.close();
        await t.close();
      },
    };
  } catch (error) {
    await browser?.close().catch(() => undefined);
    await t.close();
    throw error;
  }
}

/** Waits until the locator's text contains `text` (auto-waiting, no fixed sleep). */
export async function waitForText(locator: Locator, text: string | RegExp, timeout = 15_000): Promise<void> {
  await locator.filter({ hasText: text }).first().waitFor({ timeout });
}
