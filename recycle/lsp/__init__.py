"""`recycle lsp`: a Language Server for RECYCLE game files (the `lsp` extra: pip install 'recycle[lsp]').

analysis.py knows the language (no pygls); server.py speaks the protocol with pygls; formdocs.py
holds the hover texts of the forms, generated from docs/language.md by gendocs.py.
"""
