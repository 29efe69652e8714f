//! Statistics over a benchmark's samples. INTERIM: filled in next.
