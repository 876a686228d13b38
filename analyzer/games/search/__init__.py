"""analyzer.games.search"""
