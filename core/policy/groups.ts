/**
 * Whether an admin may delete a group or a household, and what the deletion would take with it
 * (spec §6, mealie-api-notes §4.13). Refusals carry Mealie's messages; the admin routes answer 400.
 */
import type { GroupRecord, HouseholdRecord } from "../schemas/records.js";
import { ALLOW, deny, type Decision, type Refusal } from "./subjects.js";

/** A refusal, or consent together with what else goes: the group's (user-less) households. */
export type GroupDeletePlan = Refusal | { ok: true; removesHouseholds: number };

/**
 * A group with users cannot be deleted. Spec §6 also names households, but every group has at least
 * the household it was created with, so that reading would make groups undeletable; like Mealie,
 * households (necessarily empty once the group has no users) are removed with the group.
 */
export function canDeleteGroup(
  _group: Pick<GroupRecord, "id">,
  counts: { userCount: number; householdCount: number },
): GroupDeletePlan {
  if (counts.userCount > 0) return deny("Cannot delete group with users");
  return { ok: true, removesHouseholds: counts.householdCount };
}

/** A household with users cannot be deleted; an empty one can. */
export function canDeleteHousehold(
  _household: Pick<HouseholdRecord, "id">,
  counts: { userCount: number },
): Decision {
  return counts.userCount > 0 ? deny("Cannot delete household with users") : ALLOW;
}
