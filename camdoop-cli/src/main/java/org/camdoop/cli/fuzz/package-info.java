/**
 * {@code camdoop fuzz}: random and mutated frames at the torus ports and Unix sockets of real daemons while a real
 * shuffle runs beside them, and the checks that the daemons came through unharmed.
 */
package org.camdoop.cli.fuzz;
