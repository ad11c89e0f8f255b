"""The release's Hugging Face Hub repositories: what each is (repos.py, filled by every package through entry
points), `swords hub export` (export.py, export_folder.py, wheel.py) and the bounded upload (publish.py over
session.py, transport.py, endpoint.py), and their commands (cli.py)."""
