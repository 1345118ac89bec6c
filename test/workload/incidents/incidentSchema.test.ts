import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { formatSimTime, incidentToInput, incidentsSchema } from '../../../src/workload/incidents/incidentSchema.js';
import { incidentIssues } from '../../support/incidentIssues.js';

const H = 3_600_000;
const M = 60_000;

const issues = incidentIssues;

describe('incidents schema', () => {
  const example = [
    { kind: 'deploy', at: '2h', purge: true, classes: ['assets', 'html'] },
    { kind: 'outage', start: '3h', duration: '10m' },
    { kind: 'error-burst', start: '5h', duration: '2m', status: 500, share: '30%' },
    { kind: 'slowdown', start: '6h', duration: '15m', factor: 4 },
  ];

  it('reads the example into times in ms with end = start + duration', () => {
    expect(incidentsSchema.parse(example)).toEqual([
      { kind: 'deploy', atMs: 2 * H, purge: true, classes: ['assets', 'html'] },
      { kind: 'outage', startMs: 3 * H, durationMs: 10 * M, endMs: 3 * H + 10 * M },
      { kind: 'error-burst', startMs: 5 * H, durationMs: 2 * M, endMs: 5 * H + 2 * M, status: 500, share: 0.3 },
      { kind: 'slowdown', startMs: 6 * H, durationMs: 15 * M, endMs: 6 * H + 15 * M, factor: 4 },
    ]);
  });

  it('defaults: no incidents; a deploy without purge of every class; an error burst of 500s for every response', () => {
    expect(incidentsSchema.parse(undefined)).toEqual([]);
    expect(incidentsSchema.parse([{ kind: 'deploy', at: '1h', name: 'release 42' }, { kind: 'error-burst', start: 0, duration: '30s' }])).toEqual([
      { kind: 'deploy', name: 'release 42', atMs: H, purge: false, classes: [] },
      { kind: 'error-burst', startMs: 0, durationMs: 30_000, endMs: 30_000, status: 500, share: 1 },
    ]);
  });

  it('overlapping outages and slowdowns are allowed; back-to-back error bursts are not overlapping', () => {
    expect(() =>
      incidentsSchema.parse([
        { kind: 'outage', start: '1h', duration: '1h' },
        { kind: 'outage', start: '90m', duration: '1h' },
        { kind: 'slowdown', start: '1h', duration: '1h', factor: 2 },
        { kind: 'slowdown', start: '1h', duration: '1h', factor: 3 },
        { kind: 'error-burst', start: '1h', duration: '1h' },
        { kind: 'error-burst', start: '2h', duration: '1h', status: 503 },
      ]),
    ).not.toThrow();
  });

  it('overlapping error bursts are refused, at the later one, naming both windows', () => {
    expect(issues([{ kind: 'error-burst', start: '5h', duration: '10m' }, { kind: 'outage', start: 0, duration: '1m' }, { kind: 'error-burst', start: '5h5m', duration: '1h', status: 502 }])).toEqual([
      '2.start: expected error bursts that do not overlap: this one (5h5m–6h5m) overlaps incident 0 (5h–5h10m); the origin answers with one status and share at a time — merge them or move one',
    ]);
  });

  it('concrete messages for mistakes', () => {
    expect(issues([{ kind: 'error-burst', start: '1h', duration: '1m', status: 404 }])).toEqual([
      '0.status: expected an HTTP status from 500 to 599: an error burst is a server error (spec 7.1)',
    ]);
    expect(issues([{ kind: 'error-burst', start: '1h', duration: '1m', share: '0%' }])).toEqual(['0.share: expected a share above 0% (a burst with no errors does nothing)']);
    expect(issues([{ kind: 'slowdown', start: '1h', duration: '1m', factor: 0.5 }])).toEqual(["0.factor: expected a factor ≥ 1: a slowdown multiplies the origin's service time"]);
    expect(issues([{ kind: 'outage', start: '1h', duration: 0 }])).toEqual(['0.duration: expected a duration above 0, such as 10m']);
    expect(issues([{ kind: 'outage', start: 3, duration: '1m' }])).toEqual(['0.start: expected a duration with a unit such as 250ms, 5s, 1h or 7d (a bare number is ambiguous: write 3ms or 3s)']);
    expect(issues([{ kind: 'earthquake', start: '1h' }])).toEqual(['0.kind: expected an incident with kind: deploy, outage, error-burst, slowdown']);
    expect(issues([{ kind: 'deploy', at: '1h', classes: [] }])).toEqual(['0.classes: expected at least one content class; leave classes out for a deploy of everything']);
    expect(issues([{ kind: 'deploy', at: '1h', classes: ['html', 'html'] }])).toEqual(['0.classes: expected each content class once']);
    expect(issues([{ kind: 'deploy', at: '1h', purg: true }])).toEqual(['0: Unrecognized key: "purg"']);
    expect(issues([{ kind: 'outage', duration: '1m' }])[0]).toMatch(/^0\.start: /);
    expect(issues({ kind: 'outage' })).toEqual([': expected a list of incidents']);
  });

  it('written back as input, a list parses to the same incidents', () => {
    const incidents = incidentsSchema.parse([...example, { kind: 'deploy', at: '90s', name: 'hotfix' }]);
    expect(incidentsSchema.parse(incidents.map(incidentToInput))).toEqual(incidents);
  });

  it('every kind and field has a description in the JSON Schema', () => {
    const schema = z.toJSONSchema(incidentsSchema, { io: 'input', unrepresentable: 'any' }) as { description?: string; items: { oneOf: { description?: string; properties: Record<string, { description?: string }> }[] } };
    expect(schema.description).toBeTruthy();
    for (const member of schema.items.oneOf) {
      expect(member.description).toBeTruthy();
      for (const [key, field] of Object.entries(member.properties)) if (key !== 'kind') expect(field.description, key).toBeTruthy();
    }
  });

  it('formatSimTime writes compact times for messages', () => {
    expect([0, 250, 90_000, 5 * H + 2 * M, 86_400_000, 1_500].map(formatSimTime)).toEqual(['0s', '250ms', '1m30s', '5h2m', '1d', '1500ms']);
  });
});
