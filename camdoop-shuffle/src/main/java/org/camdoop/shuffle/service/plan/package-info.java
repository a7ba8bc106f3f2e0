/** Which vertices a server hosts for a shuffle, which streams each expects, and where each sends: pure computation. */
package org.camdoop.shuffle.service.plan;
