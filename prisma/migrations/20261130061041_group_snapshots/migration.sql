-- AlterTable
ALTER TABLE "cluster_status" ADD COLUMN     "group_count" INTEGER,
ADD COLUMN     "partition_count" INTEGER,
ADD COLUMN     "request_count" INTEGER,
ADD COLUMN     "topic_count" INTEGER;

-- CreateTable
CREATE TABLE "cluster_lease" (
    "cluster_id" UUID NOT NULL,
    "owner_id" VARCHAR(200) NOT NULL,
    "acquired_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cluster_lease_pkey" PRIMARY KEY ("cluster_id")
);

-- CreateTable
CREATE TABLE "consumer_group" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "group_id" TEXT NOT NULL,
    "type" VARCHAR(20) NOT NULL,
    "state" VARCHAR(40) NOT NULL,
    "protocol_type" VARCHAR(200) NOT NULL,
    "assignor" VARCHAR(200),
    "coordinator_id" INTEGER,
    "member_count" INTEGER NOT NULL,
    "group_epoch" INTEGER,
    "assignment_epoch" INTEGER,
    "total_lag" BIGINT NOT NULL,
    "max_lag" BIGINT,
    "unknown_lag_partitions" INTEGER NOT NULL,
    "members" JSONB NOT NULL,
    "partitions" JSONB NOT NULL,
    "errors" JSONB NOT NULL DEFAULT '[]',
    "first_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "consumer_group_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "poll_cycle" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "collector_id" VARCHAR(200) NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "request_count" INTEGER NOT NULL,
    "requests" JSONB NOT NULL,
    "broker_count" INTEGER NOT NULL,
    "topic_count" INTEGER NOT NULL,
    "group_count" INTEGER NOT NULL,
    "errors" JSONB NOT NULL DEFAULT '[]',

    CONSTRAINT "poll_cycle_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "consumer_group_cluster_id_state_idx" ON "consumer_group"("cluster_id", "state");

-- CreateIndex
CREATE UNIQUE INDEX "consumer_group_cluster_id_group_key_key" ON "consumer_group"("cluster_id", "group_key");

-- CreateIndex
CREATE INDEX "poll_cycle_cluster_id_started_at_idx" ON "poll_cycle"("cluster_id", "started_at");

-- AddForeignKey
ALTER TABLE "cluster_lease" ADD CONSTRAINT "cluster_lease_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consumer_group" ADD CONSTRAINT "consumer_group_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "poll_cycle" ADD CONSTRAINT "poll_cycle_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

