/**
 * The IFile record layout both sides read: {@link org.camdoop.shuffle.records.RecordLayout} (vint key length, vint
 * value length, key, value), {@link org.camdoop.shuffle.records.RawBytes} (a view of one field) and
 * {@link org.camdoop.shuffle.records.RecordCursor} (parses a chunk, every length checked against it). A leaf: the
 * aggregation engine in the daemon and the reducer's iterator in the task share it. For code that passes on whole key
 * groups only (the root's output, a root vertex's repairable inputs): {@link org.camdoop.shuffle.records.ChunkIndex}
 * (where each record of a chunk starts, its last group) and {@link org.camdoop.shuffle.records.HeldGroup} (the group
 * held back until a greater key shows it complete).
 */
package org.camdoop.shuffle.records;
