"""One module per tab of the Space: its plain-Python handlers (no Gradio needed to call or test them), its
event functions, and `build`, which lays the tab out and wires its events. app.py composes them."""
