package org.fawnpack.jobs.md5;

/** What md5search counts (display names in Md5Counter.properties). */
public enum Md5Counter {
  /** MD5 hashes computed: the thesis's work unit, for transformations per joule. */
  TRANSFORMATIONS,
  /** (value, hash) pairs whose hash equals the target, as the reducers wrote them. */
  MATCHES
}
