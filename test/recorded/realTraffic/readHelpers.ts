import type { TrafficReader, TrafficRecord } from '../../../src/recorded/realTraffic/trafficRecord.js';

export async function readAll(reader: TrafficReader): Promise<TrafficRecord[]> {
  const records: TrafficRecord[] = [];
  for await (const record of reader) records.push(record);
  return records;
}

/** The records delivered before the read failed, and its error (the test fails when nothing is thrown). */
export async function failedRead(reader: TrafficReader): Promise<{ records: TrafficRecord[]; error: Error }> {
  const records: TrafficRecord[] = [];
  try {
    for await (const record of reader) records.push(record);
  } catch (error) {
    return { records, error: error as Error };
  }
  throw new Error('expected the read to fail');
}
