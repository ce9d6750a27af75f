-- Read API (issue 5). Member sessions overlapping a recent window, found by when they left
-- (the joined_at index would scan the whole history of the group). Incidents of a cluster,
-- newest first.

-- CreateIndex
CREATE INDEX "member_session_cluster_id_group_key_left_at_idx" ON "member_session"("cluster_id", "group_key", "left_at");

-- CreateIndex
CREATE INDEX "incident_cluster_id_opened_at_idx" ON "incident"("cluster_id", "opened_at");
