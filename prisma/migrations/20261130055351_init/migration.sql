-- CreateTable
CREATE TABLE "cluster" (
    "id" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "brokers" TEXT[],
    "client_id" VARCHAR(200) NOT NULL DEFAULT 'groupwatch',
    "sasl_mechanism" VARCHAR(20),
    "sasl_username" TEXT,
    "sasl_password_enc" TEXT,
    "tls_enabled" BOOLEAN NOT NULL DEFAULT false,
    "tls_ca" TEXT,
    "tls_cert" TEXT,
    "tls_key_enc" TEXT,
    "tls_reject_unauthorized" BOOLEAN NOT NULL DEFAULT true,
    "poll_interval_ms" INTEGER NOT NULL DEFAULT 5000,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "source" VARCHAR(20) NOT NULL DEFAULT 'api',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cluster_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cluster_status" (
    "cluster_id" UUID NOT NULL,
    "state" VARCHAR(20) NOT NULL,
    "last_poll_at" TIMESTAMPTZ(3) NOT NULL,
    "last_success_at" TIMESTAMPTZ(3),
    "last_poll_duration_ms" INTEGER NOT NULL,
    "last_error" TEXT,
    "consecutive_failures" INTEGER NOT NULL DEFAULT 0,
    "kafka_cluster_id" VARCHAR(100),
    "controller_id" INTEGER,
    "brokers" JSONB NOT NULL DEFAULT '[]',
    "collector_id" VARCHAR(200),
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "cluster_status_pkey" PRIMARY KEY ("cluster_id")
);

-- CreateIndex
CREATE UNIQUE INDEX "cluster_name_key" ON "cluster"("name");

-- AddForeignKey
ALTER TABLE "cluster_status" ADD CONSTRAINT "cluster_status_cluster_id_fkey" FOREIGN KEY ("cluster_id") REFERENCES "cluster"("id") ON DELETE CASCADE ON UPDATE CASCADE;
