"""The release's Hugging Face Hub repositories (repos.py, filled by every package through entry points), their
export (export.py, export_folder.py, wheel.py), bounded upload (publish.py, session.py, transport.py) and commands."""
