import { ms } from "../../lib/time";
import type { Bucket } from "../../services/statistics/buckets";

/** A time series as the statistics routes answer it: each bucket's label and bounds, then its figures. */
export const bucketRows = <T extends object>(rows: ({ bucket: Bucket } & T)[]) =>
  rows.map(({ bucket, ...figures }) => ({
    time: bucket.time,
    startAt: ms(bucket.start)!,
    endAt: ms(bucket.end)!,
    ...figures,
  }));
