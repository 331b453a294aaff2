package org.scache.common.protocol;

/**
 * Bad input seen by the decoder: the status to answer with and whether the connection must be
 * closed ({@code fatal}) because the byte stream cannot be followed any more.
 */
public record DecodeFailure(long requestId, Status status, String message, boolean fatal) {}
