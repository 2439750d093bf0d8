from django.urls import path

from arenas import views

urlpatterns = [
    path("arenas/", views.arena_list, name="arenas"),
    path("arenas/<int:arena_id>/", views.arena_page, name="arena"),
    path("arenas/<int:arena_id>/join/", views.arena_join, name="arena_join"),
    path("arenas/<int:arena_id>/withdraw/", views.arena_withdraw, name="arena_withdraw"),
    path("arenas/<int:arena_id>/pause/", views.arena_pause, name="arena_pause"),
    path("arenas/<int:arena_id>/resume/", views.arena_resume, name="arena_resume"),
]
