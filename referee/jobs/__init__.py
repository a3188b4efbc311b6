"""The jobs: checking a log or a score sheet (`check`, `replays`, `scoring`), the next decision of a
game in progress (`decisions`), random play (`play`), many logs at once (`batch`, in worker
processes: `workers`, on a Dask cluster: `cluster`), and the shipping calculator (`shipping`)."""
