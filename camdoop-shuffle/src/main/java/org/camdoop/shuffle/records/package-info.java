/**
 * The IFile record layout both sides read: {@link org.camdoop.shuffle.records.RecordLayout} (vint key length, vint
 * value length, key, value), {@link org.camdoop.shuffle.records.RawBytes} (a view of one field) and
 * {@link org.camdoop.shuffle.records.RecordCursor} (parses a chunk, every length checked against it). A leaf: the
 * aggregation engine in the daemon and the reducer's iterator in the task share it.
 */
package org.camdoop.shuffle.records;
