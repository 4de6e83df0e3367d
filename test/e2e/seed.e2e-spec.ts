import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { ROLES } from '../../src/modules/seed/demo-directory';
import { expectFailure, oneJsonLine, runCli } from '../support/cli';
import { runCliWith } from '../support/worker-process';
import { startTestApp, TestApp } from '../support/test-app';

const execFileAsync = promisify(execFile);

describe('seed bulk', () => {
  let t: TestApp;
  let db: Client;

  beforeAll(async () => {
    t = await startTestApp();
    db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await t.close();
  });

  const internal = (publicId: string) => String(BigInt(publicId.slice(4)));

  it('fills a workspace with varied, consistent Buyers and Signals that the API serves', async () => {
    const ws = await t.newWorkspace();
    const icp = await t.http
      .post('/v1/kb/icps')
      .set('Authorization', ws.auth)
      .send({ name: 'Fintech', short_name: 'fin', description: 'Fintech' });
    const persona = await t.http
      .post('/v1/kb/personas')
      .set('Authorization', ws.auth)
      .send({ name: 'Finance leader', short_name: 'fin-lead', description: 'Finance leaders. Seniority: C-level, VP, Director.' });
    const out = oneJsonLine(
      await runCli(
        t.config.databaseUrl,
        'seed',
        'bulk',
        '--workspace',
        ws.workspace_id,
        '--buyers',
        '120',
        '--signals',
        '1500',
        '--days',
        '30',
      ),
    );
    expect(out).toMatchObject({ workspace_id: ws.workspace_id, buyers: 120, signals: 1500, seconds: expect.any(Number) });

    const id = internal(ws.workspace_id);
    const counts = await db.query(
      `SELECT (SELECT count(*)::int FROM buyers WHERE workspace_id = $1) AS buyers,
              (SELECT count(*)::int FROM signals WHERE workspace_id = $1) AS signals,
              (SELECT count(DISTINCT trigger)::int FROM signals WHERE workspace_id = $1) AS triggers,
              (SELECT count(DISTINCT type)::int FROM signals WHERE workspace_id = $1) AS types,
              (SELECT count(*)::int FROM (SELECT captured_at FROM signals WHERE workspace_id = $1 GROUP BY 1 HAVING count(*) > 1) d) AS shared_timestamps,
              (SELECT max(captured_at) - min(captured_at) FROM signals WHERE workspace_id = $1) > interval '7 days' AS spread,
              (SELECT count(*)::int FROM buyers WHERE workspace_id = $1 AND is_icp AND icp_id IS NOT NULL) AS icp_matches`,
      [id],
    );
    expect(counts.rows[0]).toMatchObject({ buyers: 120, signals: 1500, triggers: 9, types: 3, spread: true });
    expect(counts.rows[0].shared_timestamps).toBeGreaterThan(0);
    expect(counts.rows[0].icp_matches).toBeGreaterThan(0);

    // Every Buyer's counters and first/last Signal agree with its Signals.
    const mismatches = await db.query(
      `SELECT b.id FROM buyers b
         JOIN LATERAL (SELECT count(*)::int AS total,
                              count(*) FILTER (WHERE type = 'website')::int AS website,
                              (SELECT id FROM signals f WHERE f.buyer_id = b.id ORDER BY captured_at, id LIMIT 1) AS first_id,
                              (SELECT id FROM signals l WHERE l.buyer_id = b.id ORDER BY captured_at DESC, id DESC LIMIT 1) AS last_id
                         FROM signals s WHERE s.buyer_id = b.id) a ON true
        WHERE b.workspace_id = $1
          AND (b.signal_count_total <> a.total OR b.signal_count_website <> a.website
               OR b.first_signal_id IS DISTINCT FROM a.first_id OR b.last_signal_id IS DISTINCT FROM a.last_id
               OR b.signal_count_total <> b.signal_count_website + b.signal_count_market + b.signal_count_linkedin)`,
      [id],
    );
    expect(mismatches.rows).toEqual([]);

    // People are coherent (a title comes with its function and seniority), and every Buyer is
    // evaluated like the pipeline's: reasoning on both sides, verdicts kept.
    const people = await db.query(
      `SELECT contact_info -> 'role' ->> 'title' AS title, contact_info -> 'role' ->> 'function' AS function,
              contact_info -> 'role' ->> 'seniority' AS seniority, contact_info #>> '{email,work}' AS email,
              company_info ->> 'website' AS website, is_icp, icp_reasoning, is_persona, persona_id::text, persona_reasoning,
              evaluation #>> '{persona,profile,name}' AS judged_by
         FROM buyers WHERE workspace_id = $1`,
      [id],
    );
    const roles = new Set(ROLES.map((role) => `${role.title}|${role.function}|${role.seniority}`));
    for (const person of people.rows) {
      expect(roles.has(`${person.title}|${person.function}|${person.seniority}`)).toBe(true);
      expect(person.website).toBe(`https://www.${String(person.email).split('@')[1]}`);
      expect(person.icp_reasoning).toMatch(person.is_icp ? /^Matched ICP "Fintech"/ : /^No ICP matched/);
      expect(person.persona_reasoning).toMatch(person.is_persona ? /^Matched Persona "Finance leader"/ : /^No Persona matched/);
      expect(person.judged_by).toBe('Finance leader');
      if (person.is_persona) {
        expect(person.function).toBe('Finance');
        expect(person.persona_id).toBe(internal(persona.body.id));
      }
    }
    expect(people.rows.some((person) => person.is_persona)).toBe(true);
    expect(people.rows.some((person) => !person.is_persona && /did not match/.test(person.persona_reasoning))).toBe(true);

    const signals = await t.http.get('/v1/signals').query({ limit: 1000 }).set('Authorization', ws.auth);
    expect(signals.status).toBe(200);
    expect(signals.body.data).toHaveLength(1000);
    const buyers = await t.http.get('/v1/buyers').set('Authorization', ws.auth);
    expect(buyers.body.data).toHaveLength(100);
    const matched = buyers.body.data.filter((b: { company_info: { is_icp: boolean } }) => b.company_info.is_icp);
    for (const buyer of matched) expect(buyer.company_info.icp_id).toBe(icp.body.id);
  });

  it('refuses an unknown workspace and bad counts without writing anything', async () => {
    expectFailure(await runCli(t.config.databaseUrl, 'seed', 'bulk', '--workspace', 'wor_0000000000000000001', '--buyers', '5'));
    const ws = await t.newWorkspace();
    expectFailure(await runCli(t.config.databaseUrl, 'seed', 'bulk', '--workspace', ws.workspace_id, '--buyers', 'many'));
    expectFailure(await runCli(t.config.databaseUrl, 'seed', 'bulk', '--workspace', ws.workspace_id, '--signals', '10'));
    const rows = await db.query('SELECT count(*)::int AS n FROM buyers WHERE workspace_id = $1', [internal(ws.workspace_id)]);
    expect(rows.rows[0].n).toBe(0);
  });
});

describe('seed demo', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await startTestApp();
    // A real port, so the printed commands can be run as they are.
    await t.app.listen(0, '127.0.0.1');
    port = (t.app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  interface DemoBuyer {
    company_info: { name: string; is_icp: boolean; icp_reasoning: string; location: { country: string } };
    contact_info: {
      is_persona: boolean;
      persona_reasoning: string;
      role: { title: string; function: string; seniority: string };
      social: { linkedin: string };
    };
    attribution: { source: string };
  }
  type AnySignal = { website?: { trigger: string }; market?: { trigger: string }; linkedin?: { trigger: string } };

  it('makes a demo workspace, runs its activities through the real pipeline and prints a working key and curl commands', async () => {
    const out = oneJsonLine(await runCliWith(t.config, ['seed', 'demo', '--activities', '120']));
    expect(out).toMatchObject({
      workspace_id: expect.stringMatching(/^wor_\d{19}$/),
      api_key: expect.stringMatching(/^svc_live_/),
      knowledge_base: expect.any(Number),
      directory: { companies: expect.any(Number), people: expect.any(Number) },
      activities: 120,
    });
    expect((out.processed as number) + (out.discarded as number)).toBe(120);
    // A console sign-in for the demo workspace, which works as printed.
    const signIn = out.console as { url: string; email: string; password: string };
    expect(signIn).toEqual({
      url: expect.stringMatching(/^http:\/\/localhost:\d+\/console$/),
      email: expect.any(String),
      password: expect.any(String),
    });
    const session = await t.http.post('/console/api/session').send({ email: signIn.email, password: signIn.password });
    expect(session.status).toBe(200);
    expect(session.body.user.workspace_id).toBe(out.workspace_id);
    expect(out.processed as number).toBeGreaterThan(60);
    const tries = out.try as string[];
    expect(tries).toHaveLength(3);
    for (const command of tries) {
      expect(command).toContain(`Bearer ${String(out.api_key)}`);
      // Pasteable as printed: nothing JSON has to escape.
      expect(command).not.toMatch(/["\\]/);
    }

    const auth = `Bearer ${String(out.api_key)}`;
    const icps = await t.http.get('/v1/kb/icps').set('Authorization', auth);
    expect(icps.body.data.length).toBeGreaterThan(0);
    const signals = await t.http.get('/v1/signals').query({ limit: 1000 }).set('Authorization', auth);
    expect(signals.body.data).toHaveLength(out.processed as number);
    expect(new Set(signals.body.data.map((s: { type: string }) => s.type))).toEqual(new Set(['website', 'market', 'linkedin']));
    // Every trigger of the spec's table.
    const triggers = new Set(signals.body.data.map((s: AnySignal) => (s.website ?? s.market ?? s.linkedin)?.trigger));
    expect(triggers).toEqual(
      new Set([
        'visited_page',
        'filled_form',
        'abandoned_form',
        'researched_topic',
        'explored_product',
        'evaluated_competitor',
        'followed_page',
        'commented_post',
        'reacted_post',
      ]),
    );

    const buyers: DemoBuyer[] = (await t.http.get('/v1/buyers').query({ limit: 1000 }).set('Authorization', auth)).body.data;
    expect(buyers.length).toBeGreaterThanOrEqual(8);
    // Real-looking companies: named, and not "Company 123" or "Acme 7".
    const named = buyers.filter((b) => b.company_info.name.trim() !== '' && !/\d+\s*$/.test(b.company_info.name));
    expect(named.length / buyers.length).toBeGreaterThanOrEqual(0.8);
    expect(new Set(buyers.map((b) => b.company_info.location.country).filter(Boolean)).size).toBeGreaterThanOrEqual(3);
    expect(new Set(buyers.map((b) => b.attribution.source).filter(Boolean)).size).toBeGreaterThanOrEqual(3);
    // People whose role is known say so in full, with a LinkedIn profile.
    const known = buyers.filter((b) => b.contact_info.role.title);
    expect(known.length / buyers.length).toBeGreaterThanOrEqual(0.6);
    for (const b of known) {
      expect(b.contact_info.role).toEqual(
        expect.objectContaining({ function: expect.stringMatching(/\S/), seniority: expect.stringMatching(/\S/) }),
      );
      expect(b.contact_info.social.linkedin).toMatch(/^https:\/\/www\.linkedin\.com\/in\//);
    }
    // Reasoning that shows matches, misses and what the evaluator did not know.
    const sides = buyers.flatMap((b) => [
      { matched: b.company_info.is_icp, reasoning: b.company_info.icp_reasoning },
      { matched: b.contact_info.is_persona, reasoning: b.contact_info.persona_reasoning },
    ]);
    expect(sides.every((side) => side.reasoning.trim() !== '')).toBe(true);
    expect(sides.some((side) => side.matched && /^Matched /.test(side.reasoning))).toBe(true);
    expect(sides.some((side) => !side.matched && /did not match/.test(side.reasoning))).toBe(true);
    expect(sides.some((side) => /no data for|too little data/.test(side.reasoning))).toBe(true);
  });

  it('prints plain lines with --format text, and each command runs as printed', async () => {
    const result = await runCliWith(t.config, ['seed', 'demo', '--activities', '0', '--format', 'text'], { PORT: String(port) });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^workspace_id: wor_\d{19}$/);
    expect(lines).toContain(`console: http://localhost:${port}/console`);
    const email = lines.find((line) => line.startsWith('console email: '))?.slice('console email: '.length);
    const password = lines.find((line) => line.startsWith('console password: '))?.slice('console password: '.length);
    expect((await t.http.post('/console/api/session').send({ email, password })).status).toBe(200);
    const commands = lines.filter((line) => line.startsWith('curl '));
    expect(commands).toHaveLength(3);
    for (const command of commands) {
      const { stdout } = await execFileAsync('/bin/sh', ['-c', command]);
      expect(JSON.parse(stdout)).toEqual(expect.objectContaining({ data: expect.any(Array) }));
    }
  });
});
