"""What Elasund: The First City sends, for the OpenAPI contract: the view (``View``, a seat's and a
spectator's, hidden information redacted), each event type's ``data`` (``EVENT_SCHEMAS``, as
``redact`` serves it and as the full log holds it) and the ``Result``. The platform prefixes every
name here with the game's (``View`` is ``ElasundView``) and builds the event envelopes and unions
around them.

The answers are built without these schemas (they only document them); tests/shared/
test_contract_reality.py checks random games' answers against the spec they make.
"""
from __future__ import annotations

from marshmallow import Schema, fields


class Influence(Schema):
    """Influence cards by colour."""

    red = fields.Int(strict=True, required=True)
    blue = fields.Int(strict=True, required=True)
    green = fields.Int(strict=True, required=True)


class OptionsInForce(Schema):
    """The options of this game, defaults filled in."""

    walls_blue_first = fields.Bool(required=True)
    trade_track_capacity = fields.Bool(required=True)
    shortage_payout = fields.Str(required=True)
    hut_on_own_permit = fields.Bool(required=True)


class ViewSupplyItem(Schema):
    permits = fields.List(fields.Int(strict=True), required=True)
    buildings = fields.List(fields.Str(), required=True)
    walls_built = fields.Int(strict=True, required=True)


class ViewStock(Schema):
    well = fields.Int(strict=True, required=True)
    market = fields.Int(strict=True, required=True)
    tavern = fields.Int(strict=True, required=True)
    shop = fields.Int(strict=True, required=True)
    large = fields.Int(strict=True, required=True)


class ViewBuilding(Schema):
    id = fields.Int(strict=True, required=True)
    kind = fields.Str(required=True)
    seat = fields.Int(strict=True, required=True)
    col = fields.Int(strict=True, required=True)
    row = fields.Int(strict=True, required=True)
    cubes = fields.List(fields.Int(strict=True), required=True)
    trade_points = fields.Int(strict=True, required=True)


class Wall(Schema):
    seat = fields.Int(strict=True, required=True)
    tile = fields.Int(strict=True, required=True)
    tower = fields.Bool(required=True)


class ViewHand(Schema):
    """The viewer's own hand in full; another seat's as its size only."""

    cards = fields.Int(strict=True, metadata={"description": "Another seat's hand: how many cards."})
    gold = fields.Int(strict=True, metadata={"description": "Your hand: gold."})
    influence = fields.Nested(Influence, metadata={"description": "Your hand: influence cards."})


class ViewPendingQueueItem(Schema):
    seat = fields.Int(strict=True, required=True)
    kind = fields.Str(required=True)


class ViewPendingIncome(Schema):
    gold = fields.Int(strict=True, required=True)
    influence = fields.Int(strict=True, required=True)


class ViewPending(Schema):
    rows = fields.List(fields.Int(strict=True))
    queue = fields.List(fields.Nested(ViewPendingQueueItem))
    reason = fields.Str()
    owed = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True))
    pool_size = fields.Int(strict=True,
                           metadata={"description": "Cards discarded to the pirates (face down: only their number shows)."})
    due = fields.List(fields.Nested(ViewPendingIncome), metadata={
        "description": "In an influence shortage: each seat's income from the roll, paid once the discards are made "
                       "(under the after_discard option)."})


class ViewChurchTilesValue(Schema):
    tile = fields.Int(strict=True, required=True)
    seat = fields.Int(strict=True, required=True, allow_none=True,
                      metadata={"description": "The seat whose victory cube stands on it; null when its builder had none left."})


class ViewChurch(Schema):
    tiles = fields.Dict(keys=fields.Str(), values=fields.Nested(ViewChurchTilesValue), required=True)
    origin = fields.List(fields.Int(strict=True), required=True, allow_none=True)
    stack = fields.Int(strict=True, required=True)
    bottom = fields.Int(strict=True, metadata={"description": "To the seat that put it under the stack."})
    drawn = fields.List(fields.Int(strict=True), metadata={
        "description": "To the seat on turn while it chooses a church tile: the two it drew."})


class View(Schema):
    players = fields.Int(strict=True, required=True)
    options = fields.Nested(OptionsInForce, required=True)
    current = fields.Int(strict=True, required=True)
    turn = fields.Int(strict=True, required=True)
    phase = fields.Str(required=True)
    ship = fields.Int(strict=True, required=True, allow_none=True)
    pirates = fields.Bool(required=True)
    dice = fields.List(fields.Int(strict=True), required=True, allow_none=True)
    builds = fields.Int(strict=True, required=True)
    supply = fields.List(fields.Nested(ViewSupplyItem), required=True)
    stock = fields.Nested(ViewStock, required=True)
    buildings = fields.List(fields.Nested(ViewBuilding), required=True)
    permits = fields.Dict(keys=fields.Str(), values=fields.List(fields.Int(strict=True)), required=True)
    walls = fields.Dict(keys=fields.Str(), values=fields.Nested(Wall), required=True,
                        metadata={"description": "Built walls by place (`B2`, `R10`, `T5`...)."})
    trade = fields.List(fields.Int(strict=True), required=True)
    track_cubes = fields.Dict(keys=fields.Str(), values=fields.List(fields.Int(strict=True)), required=True)
    winner = fields.Int(strict=True, required=True, allow_none=True)
    hands = fields.List(fields.Nested(ViewHand), required=True)
    cubes_on_board = fields.List(fields.Int(strict=True), required=True)
    gold_bank = fields.Int(strict=True, required=True)
    influence_deck = fields.Int(strict=True, required=True)
    influence_discard = fields.Int(strict=True, required=True)
    pending = fields.Nested(ViewPending, required=True)
    church = fields.Nested(ViewChurch, required=True)
    to_act = fields.List(fields.Int(strict=True), required=True)


class BuildingBuilt(ViewBuilding):
    """The building as the view lists it from now on."""

    build_number = fields.Int(strict=True)


class BuildingRemoved(Schema):
    id = fields.Int(strict=True, required=True)
    seat = fields.Int(strict=True, required=True)
    kind = fields.Str(required=True)


class CardsDiscarded(Schema):
    seat = fields.Int(strict=True, required=True)
    reason = fields.Str(required=True)
    gold = fields.Int(strict=True, required=True)
    influence = fields.Nested(Influence, required=True, allow_none=True,
                              metadata={"description": "The cards discarded; null to the other seats while the game runs (influence_count says how many)."})
    influence_count = fields.Int(strict=True,
                                 metadata={"description": "To the other seats: how many influence cards."})


class CardsDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    gold = fields.Int(strict=True, required=True)
    influence = fields.List(fields.Str(), required=True, allow_none=True,
                            metadata={"description": "The colours drawn; null to the other seats while the game runs (influence_count says how many)."})
    reason = fields.Str(required=True)
    influence_count = fields.Int(strict=True,
                                 metadata={"description": "To the other seats: how many influence cards."})


class ChurchDrawn(Schema):
    seat = fields.Int(strict=True, required=True)
    tiles = fields.List(fields.Int(strict=True), required=True, allow_none=True,
                        metadata={"description": "The two tiles drawn; null to the other seats while the game runs."})


class ChurchTileBottomed(Schema):
    seat = fields.Int(strict=True, required=True)
    tile = fields.Int(strict=True, required=True, allow_none=True,
                      metadata={"description": "null to the other seats while the game runs."})


class ChurchTilePlaced(Schema):
    seat = fields.Int(strict=True, required=True, allow_none=True,
                      metadata={"description": "The seat that puts a victory cube on the tile; null when the builder has none left."})
    builder = fields.Int(strict=True, required=True)
    tile = fields.Int(strict=True, required=True)
    col = fields.Int(strict=True, required=True)
    row = fields.Int(strict=True, required=True)
    build_number = fields.Int(strict=True, required=True)


class DiceRolled(Schema):
    seat = fields.Int(strict=True, required=True)
    dice = fields.List(fields.Int(strict=True), required=True)
    total = fields.Int(strict=True, required=True)


class GameStarted(Schema):
    players = fields.Int(strict=True, required=True)
    options = fields.Nested(OptionsInForce, required=True)
    start_rolls = fields.List(fields.Dict(keys=fields.Str(), values=fields.List(fields.Int(strict=True))), required=True)
    first_player = fields.Int(strict=True, required=True)


class GameWon(Schema):
    seat = fields.Int(strict=True, required=True)


class GoldPaid(Schema):
    seat = fields.Int(strict=True, required=True)
    amount = fields.Int(strict=True, required=True)
    to = fields.Int(strict=True, required=True, allow_none=True)


class HutLost(Schema):
    seat = fields.Int(strict=True, required=True)
    kind = fields.Str(required=True)


class InfluenceDeckFormed(Schema):
    counts = fields.Nested(Influence, required=True)


class InfluencePaid(Schema):
    seat = fields.Int(strict=True, required=True)
    colours = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True), required=True)


class InfluenceReshuffled(Schema):
    pass


class LootTaken(Schema):
    seat = fields.Int(strict=True, required=True)
    gold = fields.Int(strict=True, required=True, allow_none=True,
                      metadata={"description": "null to the other seats while the game runs (count says how many cards)."})
    influence = fields.Nested(Influence, required=True, allow_none=True,
                              metadata={"description": "null to the other seats while the game runs (count says how many cards)."})
    influence_count = fields.Int(strict=True)
    count = fields.Int(strict=True, metadata={"description": "To the other seats: how many cards were taken."})


class PermitMoved(Schema):
    seat = fields.Int(strict=True, required=True)
    from_ = fields.List(fields.Int(strict=True), required=True, data_key="from")
    to = fields.List(fields.Int(strict=True), required=True)


class PermitPlaced(Schema):
    seat = fields.Int(strict=True, required=True)
    value = fields.Int(strict=True, required=True)
    col = fields.Int(strict=True, required=True)
    row = fields.Int(strict=True, required=True)


class PermitUpgraded(Schema):
    seat = fields.Int(strict=True, required=True)
    col = fields.Int(strict=True, required=True)
    row = fields.Int(strict=True, required=True)
    value = fields.Int(strict=True, required=True)


class PermitsReturned(Schema):
    squares = fields.List(fields.List(fields.Int(strict=True)), required=True)



class EventPhaseEnteredPendingPool(Schema):
    gold = fields.Int(strict=True, required=True)
    influence = fields.Nested(Influence, required=True)


class EventPhaseEnteredPendingQueueItem(Schema):
    seat = fields.Int(strict=True, required=True)
    kind = fields.Str(required=True)


class EventPhaseEnteredPending(Schema):
    rows = fields.List(fields.Int(strict=True))
    reason = fields.Str()
    owed = fields.Dict(keys=fields.Str(), values=fields.Int(strict=True))
    pool = fields.Nested(EventPhaseEnteredPendingPool)
    queue = fields.List(fields.Nested(EventPhaseEnteredPendingQueueItem))


class PhaseEntered(Schema):
    phase = fields.Str(required=True)
    pending = fields.Nested(EventPhaseEnteredPending)


class PoolSettled(Schema):
    pass


class ShipMoved(Schema):
    row = fields.Int(strict=True, required=True)
    pirates = fields.Bool(required=True)


class TradeMoved(Schema):
    seat = fields.Int(strict=True, required=True)
    total = fields.Int(strict=True, required=True)
    removed = fields.List(fields.Int(strict=True), required=True)
    placed = fields.List(fields.Int(strict=True), required=True)


class TurnStarted(Schema):
    seat = fields.Int(strict=True, required=True)
    turn = fields.Int(strict=True, required=True)


class WallBuilt(Schema):
    seat = fields.Int(strict=True, required=True)
    space = fields.Str(required=True)
    tile = fields.Int(strict=True, required=True)
    tower = fields.Bool(required=True)
    build_number = fields.Int(strict=True, required=True)


class Result(Schema):
    winners = fields.List(fields.Int(strict=True), required=True)
    scores = fields.List(fields.Int(strict=True), required=True)
    trade_points = fields.List(fields.Int(strict=True), required=True)
    turns = fields.Int(strict=True, required=True)

EVENT_SCHEMAS: dict[str, type[Schema]] = {
    "building_built": BuildingBuilt,
    "building_removed": BuildingRemoved,
    "cards_discarded": CardsDiscarded,
    "cards_drawn": CardsDrawn,
    "church_drawn": ChurchDrawn,
    "church_tile_bottomed": ChurchTileBottomed,
    "church_tile_placed": ChurchTilePlaced,
    "dice_rolled": DiceRolled,
    "game_started": GameStarted,
    "game_won": GameWon,
    "gold_paid": GoldPaid,
    "hut_lost": HutLost,
    "influence_deck_formed": InfluenceDeckFormed,
    "influence_paid": InfluencePaid,
    "influence_reshuffled": InfluenceReshuffled,
    "loot_taken": LootTaken,
    "permit_moved": PermitMoved,
    "permit_placed": PermitPlaced,
    "permit_upgraded": PermitUpgraded,
    "permits_returned": PermitsReturned,
    "phase_entered": PhaseEntered,
    "pool_settled": PoolSettled,
    "ship_moved": ShipMoved,
    "trade_moved": TradeMoved,
    "turn_started": TurnStarted,
    "wall_built": WallBuilt,
}
