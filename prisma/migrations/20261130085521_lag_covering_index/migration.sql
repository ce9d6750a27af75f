-- Lag history without per-partition detail, and peak lag for forensics, read only the group's
-- totals: carry them in the (cluster, group, time) index so those reads are index-only scans.
-- (Prisma's schema cannot express INCLUDE, and the @@index in schema.prisma names the same index.)
DROP INDEX "lag_sample_cluster_id_group_key_at_idx";
CREATE INDEX "lag_sample_cluster_id_group_key_at_idx" ON "lag_sample"("cluster_id", "group_key", "at") INCLUDE ("total_lag", "max_lag", "lag_seconds");
