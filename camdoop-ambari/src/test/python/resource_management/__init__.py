"""A minimal stand-in for Ambari's resource_management library (Ambari's agent ships the real one; it is not on any
package registry reachable here). It implements only what the CAMDOOP scripts use, with the same module paths and
the same behaviour an Ambari agent gives them: commands run for real, files are really written, a failed command
raises Fail, a stopped component raises ComponentIsNotRunning. Used by AmbariServiceTest, never shipped."""
