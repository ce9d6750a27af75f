-- AlterTable
ALTER TABLE "consumer_group" ADD COLUMN     "lag_seconds" DOUBLE PRECISION;

-- CreateTable
CREATE TABLE "lag_sample" (
    "id" BIGSERIAL NOT NULL,
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "total_lag" BIGINT NOT NULL,
    "max_lag" BIGINT,
    "lag_seconds" DOUBLE PRECISION,
    "unknown_partitions" INTEGER NOT NULL,
    "partitions" JSONB NOT NULL,

    CONSTRAINT "lag_sample_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "lag_rollup" (
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "bucket_seconds" INTEGER NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "samples" INTEGER NOT NULL,
    "total_lag_max" BIGINT NOT NULL,
    "total_lag_last" BIGINT NOT NULL,
    "max_lag" BIGINT,
    "lag_seconds_max" DOUBLE PRECISION,
    "partitions" JSONB NOT NULL,

    CONSTRAINT "lag_rollup_pkey" PRIMARY KEY ("cluster_id","group_key","bucket_seconds","at")
);

-- CreateTable
CREATE TABLE "partition_offset_history" (
    "cluster_id" UUID NOT NULL,
    "topic" VARCHAR(300) NOT NULL,
    "partition" INTEGER NOT NULL,
    "points" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "partition_offset_history_pkey" PRIMARY KEY ("cluster_id","topic","partition")
);

-- CreateTable
CREATE TABLE "consumer_status_window" (
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "window" JSONB NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "consumer_status_window_pkey" PRIMARY KEY ("cluster_id","group_key")
);

-- CreateTable
CREATE TABLE "alert_rule" (
    "id" UUID NOT NULL,
    "cluster_id" UUID,
    "group_glob" VARCHAR(300),
    "kind" VARCHAR(20) NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "params" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_rule_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "silence" (
    "id" UUID NOT NULL,
    "cluster_id" UUID,
    "group_glob" VARCHAR(300),
    "kind" VARCHAR(20),
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "comment" VARCHAR(1000) NOT NULL DEFAULT '',
    "created_by" VARCHAR(200) NOT NULL DEFAULT '',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "silence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "incident" (
    "id" UUID NOT NULL,
    "cluster_id" UUID NOT NULL,
    "group_key" VARCHAR(300) NOT NULL,
    "group_id" TEXT NOT NULL,
    "kind" VARCHAR(20) NOT NULL,
    "state" VARCHAR(20) NOT NULL,
    "severity" VARCHAR(20) NOT NULL DEFAULT 'warning',
    "opened_at" TIMESTAMPTZ(3) NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,
    "resolved_at" TIMESTAMPTZ(3),
    "last_notified_at" TIMESTAMPTZ(3),
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "summary" VARCHAR(2000) NOT NULL,
    "details" JSONB NOT NULL,

    CONSTRAINT "incident_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoint" (
    "id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "format" VARCHAR(20) NOT NULL,
    "secret_enc" TEXT,
    "routing_key_enc" TEXT,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "webhook_endpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "notification" (
    "id" BIGSERIAL NOT NULL,
    "idempotency_key" VARCHAR(200) NOT NULL,
    "endpoint_id" UUID NOT NULL,
    "incident_id" UUID,
    "event" VARCHAR(20) NOT NULL,
    "payload" JSONB NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),
    "last_error" VARCHAR(2000),

    CONSTRAINT "notification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "delivery_attempt" (
    "id" BIGSERIAL NOT NULL,
    "notification_id" BIGINT NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "ok" BOOLEAN NOT NULL,
    "status_code" INTEGER,
    "error" VARCHAR(2000),

    CONSTRAINT "delivery_attempt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "app_user" (
    "id" UUID NOT NULL,
    "username" VARCHAR(200) NOT NULL,
    "name" VARCHAR(200) NOT NULL DEFAULT '',
    "password_hash" VARCHAR(300),
    "role" VARCHAR(20) NOT NULL,
    "provider" VARCHAR(20) NOT NULL,
    "disabled" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_login_at" TIMESTAMPTZ(3),

    CONSTRAINT "app_user_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "lag_sample_cluster_id_group_key_at_idx" ON "lag_sample"("cluster_id", "group_key", "at");

-- CreateIndex
CREATE INDEX "lag_sample_cluster_id_at_idx" ON "lag_sample"("cluster_id", "at");

-- CreateIndex
CREATE INDEX "lag_rollup_cluster_id_bucket_seconds_at_idx" ON "lag_rollup"("cluster_id", "bucket_seconds", "at");

-- CreateIndex
CREATE INDEX "alert_rule_cluster_id_idx" ON "alert_rule"("cluster_id");

-- CreateIndex
CREATE INDEX "silence_ends_at_idx" ON "silence"("ends_at");

-- CreateIndex
CREATE INDEX "incident_cluster_id_state_idx" ON "incident"("cluster_id", "state");

-- CreateIndex
CREATE INDEX "incident_cluster_id_group_key_opened_at_idx" ON "incident"("cluster_id", "group_key", "opened_at");

-- CreateIndex
CREATE INDEX "incident_opened_at_idx" ON "incident"("opened_at");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_endpoint_name_key" ON "webhook_endpoint"("name");

-- CreateIndex
CREATE UNIQUE INDEX "notification_idempotency_key_key" ON "notification"("idempotency_key");

-- CreateIndex
CREATE INDEX "notification_status_next_attempt_at_idx" ON "notification"("status", "next_attempt_at");

-- CreateIndex
CREATE INDEX "notification_created_at_idx" ON "notification"("created_at");

-- CreateIndex
CREATE INDEX "delivery_attempt_notification_id_at_idx" ON "delivery_attempt"("notification_id", "at");

-- CreateIndex
CREATE INDEX "delivery_attempt_at_idx" ON "delivery_attempt"("at");

-- CreateIndex
CREATE UNIQUE INDEX "app_user_username_key" ON "app_user"("username");

-- AddForeignKey
ALTER TABLE "lag_sample" ADD CONSTRAINT "lag_sample_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "lag_rollup" ADD CONSTRAINT "lag_rollup_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "partition_offset_history" ADD CONSTRAINT "partition_offset_history_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "consumer_status_window" ADD CONSTRAINT "consumer_status_window_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_rule" ADD CONSTRAINT "alert_rule_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "silence" ADD CONSTRAINT "silence_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "incident" ADD CONSTRAINT "incident_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification" ADD CONSTRAINT "notification_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "notification" ADD CONSTRAINT "notification_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incident"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "delivery_attempt" ADD CONSTRAINT "delivery_attempt_notification_id_fkey" FOREIGN KEY ("notification_id") REFERENCES "notification"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- At most one open incident per (cluster, group, rule kind).
CREATE UNIQUE INDEX "incident_one_open" ON "incident"("cluster_id", "group_key", "kind") WHERE "state" = 'open';

-- Case-insensitive username lookup.
CREATE UNIQUE INDEX "app_user_username_lower" ON "app_user"(lower("username"));
