"""The site's URLs and ``/bench/bare/`` (see ``benchmarks/bare_site.py``)."""

from django.http import HttpResponse
from django.urls import path

from nyet_site.urls import handler404  # noqa: F401
from nyet_site.urls import urlpatterns as site


def bare(request):
    return HttpResponse("ok")


urlpatterns = [path("bench/bare/", bare), *site]
