-- AlterTable
ALTER TABLE "cluster" ADD COLUMN     "commit_interval_ms" INTEGER NOT NULL DEFAULT 5000,
ADD COLUMN     "max_poll_interval_ms" INTEGER NOT NULL DEFAULT 300000,
ADD COLUMN     "session_timeout_ms" INTEGER NOT NULL DEFAULT 45000;

-- CreateTable
CREATE TABLE "group_timeline" (
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "state" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "group_timeline_pkey" PRIMARY KEY ("cluster_id","group_key")
);

-- CreateTable
CREATE TABLE "group_event" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "key_hash" CHAR(40) NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "group_id" TEXT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "kind" VARCHAR(40) NOT NULL,
    "member_id" TEXT,
    "details" JSONB NOT NULL,

    CONSTRAINT "group_event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rebalance_episode" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "key_hash" CHAR(40) NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "group_id" TEXT NOT NULL,
    "started_after" TIMESTAMPTZ(3) NOT NULL,
    "detected_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_by" TIMESTAMPTZ(3),
    "observed_in_progress" BOOLEAN NOT NULL,
    "rebalance" BOOLEAN NOT NULL,
    "cause_kinds" TEXT[],
    "causes" JSONB NOT NULL,
    "members_before" JSONB NOT NULL,
    "members_after" JSONB NOT NULL,
    "partitions_moved" JSONB NOT NULL,
    "epoch_before" INTEGER,
    "epoch_after" INTEGER,

    CONSTRAINT "rebalance_episode_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "member_session" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "key_hash" CHAR(40) NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "member_id" TEXT NOT NULL,
    "group_instance_id" TEXT,
    "client_id" TEXT NOT NULL,
    "client_host" TEXT NOT NULL,
    "joined_at" TIMESTAMPTZ(3) NOT NULL,
    "joined_observed" BOOLEAN NOT NULL,
    "left_at" TIMESTAMPTZ(3),
    "left_how" VARCHAR(40),
    "assignment" JSONB NOT NULL,

    CONSTRAINT "member_session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "group_state_interval" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "key_hash" CHAR(40) NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "state" VARCHAR(40) NOT NULL,
    "from" TIMESTAMPTZ(3) NOT NULL,
    "from_after" TIMESTAMPTZ(3),
    "to" TIMESTAMPTZ(3),

    CONSTRAINT "group_state_interval_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "group_event_cluster_id_group_key_at_idx" ON "group_event"("cluster_id", "group_key", "at");

-- CreateIndex
CREATE INDEX "group_event_cluster_id_at_idx" ON "group_event"("cluster_id", "at");

-- CreateIndex
CREATE UNIQUE INDEX "group_event_cluster_id_key_hash_key" ON "group_event"("cluster_id", "key_hash");

-- CreateIndex
CREATE INDEX "rebalance_episode_cluster_id_group_key_detected_at_idx" ON "rebalance_episode"("cluster_id", "group_key", "detected_at");

-- CreateIndex
CREATE INDEX "rebalance_episode_cluster_id_detected_at_idx" ON "rebalance_episode"("cluster_id", "detected_at");

-- CreateIndex
CREATE UNIQUE INDEX "rebalance_episode_cluster_id_key_hash_key" ON "rebalance_episode"("cluster_id", "key_hash");

-- CreateIndex
CREATE INDEX "member_session_cluster_id_group_key_joined_at_idx" ON "member_session"("cluster_id", "group_key", "joined_at");

-- CreateIndex
CREATE UNIQUE INDEX "member_session_cluster_id_key_hash_key" ON "member_session"("cluster_id", "key_hash");

-- CreateIndex
CREATE INDEX "group_state_interval_cluster_id_group_key_from_idx" ON "group_state_interval"("cluster_id", "group_key", "from");

-- CreateIndex
CREATE UNIQUE INDEX "group_state_interval_cluster_id_key_hash_key" ON "group_state_interval"("cluster_id", "key_hash");

-- AddForeignKey
ALTER TABLE "group_timeline" ADD CONSTRAINT "group_timeline_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_event" ADD CONSTRAINT "group_event_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rebalance_episode" ADD CONSTRAINT "rebalance_episode_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "member_session" ADD CONSTRAINT "member_session_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_state_interval" ADD CONSTRAINT "group_state_interval_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

