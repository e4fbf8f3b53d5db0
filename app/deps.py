"""Typed FastAPI dependencies: one-line accessors and ``Annotated`` aliases. Tests swap them with
``app.dependency_overrides``."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from app.auth import ANONYMOUS, Principal
from app.cache import ResultCache
from app.container import Container
from app.errors import DependencyError
from app.services.qa import QAService
from app.settings import Settings
from app.training.jobs import TuneJobs


def get_container(request: Request) -> Container:
    container: Container | None = getattr(request.app.state, "container", None)
    if container is None:
        raise DependencyError("service", "not started")
    return container


def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def get_qa(container: Annotated[Container, Depends(get_container)]) -> QAService:
    return container.qa


def get_cache(container: Annotated[Container, Depends(get_container)]) -> ResultCache | None:
    return container.cache


def get_tune_jobs(request: Request) -> TuneJobs:
    jobs: TuneJobs | None = getattr(request.app.state, "tune_jobs", None)
    if jobs is None:
        raise DependencyError("service", "not started")
    return jobs


def get_principal(request: Request) -> Principal:
    """The caller, as the auth middleware resolved it (``app/auth.py``)."""
    who: Principal = getattr(request.state, "principal", ANONYMOUS)
    return who


ContainerDep = Annotated[Container, Depends(get_container)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
QADep = Annotated[QAService, Depends(get_qa)]
CacheDep = Annotated[ResultCache | None, Depends(get_cache)]
PrincipalDep = Annotated[Principal, Depends(get_principal)]
TuneJobsDep = Annotated[TuneJobs, Depends(get_tune_jobs)]
