"""`polytile serve`: the page, its JSON API and the jobs it starts, each search in a process of
its own so that Cancel really stops it. It calls the same library functions as the CLI."""
