package com.example.acmeerrors;

/**
 * One reason the contract rejects a payload.
 *
 * @param id a stable id ({@code wrong-type}, {@code unknown-code}, ...), the same in every SDK
 * @param message what is wrong, for people
 */
public record Problem(String id, String message) {
  @Override
  public String toString() {
    return id + ": " + message;
  }
}
