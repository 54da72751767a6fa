"""What every board picture shares: escaping player text and writing attributes."""
from shared.game.pictures import attrs, seat_colour, svg_document, text


def test_player_text_is_escaped_and_loses_control_characters() -> None:
    assert text('<script>"x"</script>') == "&lt;script&gt;&quot;x&quot;&lt;/script&gt;"
    assert text("red\x1b[31m\u202eevil") == "red[31mevil"
    assert text("Élodie & co") == "Élodie &amp; co"


def test_attributes_are_named_as_svg_wants_and_none_is_left_out() -> None:
    assert attrs(class_="piece", data_kind="node", data_id=12, data_seat=None) == \
        'class="piece" data-kind="node" data-id="12"'


def test_a_document_scales_and_says_what_it_shows() -> None:
    doc = svg_document(100, 50, ["<g/>"], 'Board of "a"')
    assert doc.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"')
    assert "<title>Board of &quot;a&quot;</title>" in doc
    assert seat_colour(0) != seat_colour(1) and seat_colour(6) == seat_colour(0)
