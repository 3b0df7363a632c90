"""Playing games: chunks on numba threads or through the executor seam (here or on a Dask
cluster), their results and Parquet store, per-chunk count tables, replays, warm-up and bench."""
