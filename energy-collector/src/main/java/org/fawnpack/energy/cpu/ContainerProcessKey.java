package org.fawnpack.energy.cpu;

/** A running container as the NodeManager names it: application id and container id strings. */
public record ContainerProcessKey(String applicationId, String containerId) {
}
