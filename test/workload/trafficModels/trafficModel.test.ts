import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTrafficModel, modelHitRate } from '../../../src/workload/trafficModels/trafficModel.js';

function modelFolder(fd: string): string {
  const folder = mkdtempSync(join(tmpdir(), 'cdnsim-model-'));
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'fd.txt'), fd);
  writeFileSync(join(folder, 'popularity.txt'), '1\n100 1\n');
  return folder;
}

describe('traffic models (docs/traffic-models.md)', () => {
  it("the shipped classes' curves are the issue's table (eu-2 70.21 % at 1 GB, v 42.36 % at 10 GB, tc-0 96.00 % at 1 TB)", () => {
    expect(modelHitRate(loadTrafficModel('eu-2').fd, 1e9)).toBeCloseTo(0.7021, 4);
    expect(modelHitRate(loadTrafficModel('v').fd, 1e10)).toBeCloseTo(0.4236, 4);
    expect(modelHitRate(loadTrafficModel('tc-0').fd, 1e12)).toBeCloseTo(0.96, 4);
    expect(modelHitRate(loadTrafficModel('eu-3').fd, 1e11)).toBeCloseTo(0.5788, 4);
  });

  it("a user's folder, relative to the scenario's; a curve whose rows and miss share do not add up to 1 cannot be reached", () => {
    const good = modelFolder('10 1000 0 10 4 400\n0 0 0.6\n');
    const model = loadTrafficModel(good.split('/').pop() ?? '', join(good, '..'));
    expect(model.bfd).toBeNull();
    expect(modelHitRate(model.fd, 1)).toBeCloseTo(0.6, 12);
    const bad = modelFolder('10 1000 0 10 4 400\n0 0 0.3\n');
    expect(() => loadTrafficModel(bad)).toThrow('fd.txt: the curve cannot be reached: the rows\' fractions add up to 0.3000 and the header\'s miss share is 0.4000');
  });

  it('an unknown class names the shipped ones and the nearest', () => {
    expect(() => loadTrafficModel('tc-1')).toThrow("unknown traffic class 'tc-1' (did you mean tc-0?): the shipped classes are eu-2, eu-3, tc-0, v");
  });
});
