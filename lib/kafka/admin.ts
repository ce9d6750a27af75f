import { AssignerProtocol, type Admin } from "kafkajs";

import type { ClusterInfo, GroupDescription, GroupMember, TopicPartitions } from "../domain/types";

// Thin translations from kafkajs admin responses to domain types.

export async function describeCluster(admin: Admin): Promise<ClusterInfo> {
  const res = await admin.describeCluster();
  return {
    kafkaClusterId: res.clusterId || null,
    controllerId: res.controller ?? null,
    brokers: res.brokers
      .map((b) => ({ nodeId: b.nodeId, host: b.host, port: b.port, rack: null }))
      .sort((a, b) => a.nodeId - b.nodeId),
  };
}

function decodeSubscription(metadata: Buffer): string[] {
  if (metadata.length === 0) return [];
  try {
    return [...AssignerProtocol.MemberMetadata.decode(metadata)!.topics].sort();
  } catch {
    return [];
  }
}

function decodeAssignment(assignment: Buffer): TopicPartitions[] {
  if (assignment.length === 0) return [];
  try {
    const decoded = AssignerProtocol.MemberAssignment.decode(assignment);
    if (!decoded) return [];
    return Object.entries(decoded.assignment)
      .map(([topic, partitions]) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }))
      .sort((a, b) => a.topic.localeCompare(b.topic));
  } catch {
    return [];
  }
}

export async function describeGroups(admin: Admin, groupIds: string[]): Promise<GroupDescription[]> {
  if (groupIds.length === 0) return [];
  const { groups } = await admin.describeGroups(groupIds);
  return groups.map((g) => ({
    groupId: g.groupId,
    state: g.state,
    protocolType: g.protocolType,
    protocol: g.protocol,
    members: g.members.map((m): GroupMember => ({
      memberId: m.memberId,
      groupInstanceId: null,
      clientId: m.clientId,
      clientHost: m.clientHost,
      subscribedTopics: g.protocolType === "consumer" ? decodeSubscription(m.memberMetadata) : [],
      assignment: g.protocolType === "consumer" ? decodeAssignment(m.memberAssignment) : [],
    })),
  }));
}

export async function listGroupIds(admin: Admin): Promise<string[]> {
  const { groups } = await admin.listGroups();
  return groups.map((g) => g.groupId).sort();
}
