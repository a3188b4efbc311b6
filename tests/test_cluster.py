"""`referee validate --cluster`: the same output, order and exit code as `--jobs 1`, with the
files checked by the workers of a Dask cluster (a LocalCluster runs in the test)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tests.conftest import FIXTURES

BROKEN = (FIXTURES / "game-3p.yaml").read_text().replace("result: {Ines: 44", "result: {Ines: 45")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("archive")
    games = sorted(FIXTURES.glob("game-*.yaml"))
    for i in range(24):
        shutil.copy(games[i % len(games)], folder / f"night-{i:02d}.yaml")
    (folder / "night-07.yaml").write_text(BROKEN)  # a wrong result: exit 1
    (folder / "night-19.yaml").write_text("ruleset: base\nplayers: [Anna\n")  # unreadable: exit 2
    shutil.copy(FIXTURES / "sheets" / "sheet-3p.yaml", folder / "sheet.yaml")  # not a log: skipped
    return folder


def test_a_local_cluster_gives_exactly_what_one_process_gives(archive: Path):
    alone = run("validate", "--format", "json", str(archive))
    spread = run("validate", "--format", "json", "--cluster", "local:2", str(archive))
    assert alone.returncode == spread.returncode == 2
    assert spread.stdout == alone.stdout
    assert len(spread.stdout.splitlines()) == 24
    assert "skipped 1 score sheet" in spread.stderr


def test_a_running_scheduler_is_used_by_its_address(archive: Path):
    from dask.distributed import LocalCluster

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a busy dashboard port: no dashboard is used
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster:
        spread = run("validate", "--cluster", cluster.scheduler_address, str(archive))
    alone = run("validate", str(archive))
    assert spread.returncode == alone.returncode == 2
    assert spread.stdout == alone.stdout


@pytest.mark.parametrize(
    ("cluster", "says"),
    [
        ("nowhere", "--cluster takes a scheduler's address (tcp://HOST:PORT) or local:N, not 'nowhere'"),
        ("local:0", "--cluster local:N takes 1 to 256 workers, not 0"),
    ],
)
def test_a_cluster_that_cannot_be_used_is_a_usage_error(cluster: str, says: str):
    out = run("validate", "--cluster", cluster, str(FIXTURES / "game-2p.yaml"))
    assert out.returncode == 2 and f"error[usage.cluster]: {says}" in out.stdout


def test_cluster_and_jobs_are_not_given_together():
    out = run("validate", "--cluster", "local:2", "--jobs", "2", str(FIXTURES / "game-2p.yaml"))
    assert out.returncode == 2 and "--cluster and --jobs are two ways to spread the work: give one" in out.stdout
