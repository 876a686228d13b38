"""analyzer.games.shared"""
