/** The {@code scripts/camdoop} command line: one entry point, one subcommand per tool. */
package org.camdoop.cli;
