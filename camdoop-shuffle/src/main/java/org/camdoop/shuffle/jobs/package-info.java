/**
 * The daemon's registry of running jobs: job specs and their digest-addressed jars, per-job class loaders for the job's
 * combiner and comparator, the user-code policy, and job-token proofs of map-output registrations.
 */
package org.camdoop.shuffle.jobs;
